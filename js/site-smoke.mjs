// Opens the built docs site in headless Chromium (the pinned one of browser.mjs, driven by
// playwright-core) and checks that the navigation and the search work;
// screenshots go to the folder given. Run by tests/test_docs_site.py:
// node site-smoke.mjs BASE_URL SCREENSHOT_DIR
import { chromium } from "playwright-core";
import { pinnedChromium } from "./browser.mjs";

const [base, shots] = process.argv.slice(2);
const { executablePath, env } = await pinnedChromium();
const browser = await chromium.launch({
  executablePath,
  env: { ...process.env, ...env },
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
});
const result = { browser: { executablePath, version: browser.version() } };
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(base, { waitUntil: "networkidle" });
  result.title = await page.title();
  result.navigation = await page.locator("nav.md-nav--primary a.md-nav__link").allInnerTexts();
  await page.screenshot({ path: `${shots}/home.png`, fullPage: false });

  await page.locator("nav.md-nav--primary a.md-nav__link", { hasText: "Getting started" }).first().click();
  await page.waitForLoadState("networkidle");
  result.clicked = { url: page.url(), heading: await page.locator("article h1").first().innerText() };

  await page.locator("input.md-search__input").click();
  await page.keyboard.type("convert_request");
  await page.locator(".md-search-result__item").first().waitFor({ timeout: 20000 });
  result.search = await page.locator(".md-search-result__item h1, .md-search-result__item h2").allInnerTexts();
  await page.screenshot({ path: `${shots}/search.png`, fullPage: false });
} finally {
  await browser.close();
}
console.log(JSON.stringify(result));
