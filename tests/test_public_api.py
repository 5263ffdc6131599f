"""The public surface is deliberate: ``__all__`` is sorted, complete and importable.

``chatcodec.__all__`` is the one list of public names (httpx's ``test_exported_members``
pattern): every other place that lists or uses them is tested against
it here. The lazy-import table and the type checkers' imports in ``__init__.py`` hold
exactly its names; the README, the docs pages and the static typing checks use no other.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

import chatcodec


def _isort_key(name: str) -> tuple[int, str]:
    # constants, then classes, then functions: the order ruff's RUF022 keeps
    group = 0 if name.isupper() else 1 if name[0].isupper() else 2
    return group, name


def test_all_is_sorted_and_unique() -> None:
    assert list(chatcodec.__all__) == sorted(set(chatcodec.__all__), key=_isort_key)


def test_every_name_in_all_is_importable() -> None:
    missing = [name for name in chatcodec.__all__ if not hasattr(chatcodec, name)]
    assert missing == []


def test_no_public_name_is_left_out_of_all() -> None:
    for name in chatcodec.__all__:
        getattr(chatcodec, name)  # names load lazily: resolve them all first
    public = {name for name in vars(chatcodec) if not name.startswith("_")}
    submodules = {name for name in public if type(getattr(chatcodec, name)).__name__ == "module"}
    assert public - submodules == set(chatcodec.__all__)
    assert [name for name in dir(chatcodec) if name not in submodules] == sorted(chatcodec.__all__)


def test_importing_chatcodec_loads_neither_pydantic_nor_the_models() -> None:
    # the cold-import budget (bench/ measures it): names resolve on first access
    code = "import sys, chatcodec; print(sorted(m for m in sys.modules if m.startswith(('pydantic', 'chatcodec.'))))"
    loaded = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert loaded.strip() == "[]"


def test_public_names_load_on_first_access() -> None:
    code = (
        "import sys, chatcodec; before = 'chatcodec._model.messages' in sys.modules; "
        "chatcodec.UserMessage; print(before, 'chatcodec._model.messages' in sys.modules)"
    )
    loaded = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert loaded.split() == ["False", "True"]


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        getattr(chatcodec, "Nope")  # noqa: B009


def test_importing_chatcodec_loads_no_provider_codec_or_test_helper() -> None:
    code = (
        "import sys, chatcodec; "
        "print(sorted(m for m in sys.modules if m.startswith(('chatcodec._providers', 'chatcodec.testing', "
        "'hypothesis'))))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert loaded.strip() == "[]"


def test_package_is_typed() -> None:
    from importlib.resources import files

    assert files("chatcodec").joinpath("py.typed").is_file()


ROOT = Path(__file__).resolve().parents[1]
INIT = Path(chatcodec.__file__)


def _type_checking_imports() -> dict[str, str]:
    """``name -> module`` of the imports under ``if TYPE_CHECKING:`` in ``__init__.py``."""
    tree = ast.parse(INIT.read_text(encoding="utf-8"))
    block = next(
        node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING")
    )
    return {
        alias.asname or alias.name: node.module or ""
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


def _lazy_table() -> dict[str, str]:
    table: dict[str, str] = vars(chatcodec)["_EXPORTED_FROM"]
    return table


def test_the_lazy_import_table_holds_exactly_all() -> None:
    assert sorted(_lazy_table()) == sorted(chatcodec.__all__)


def test_the_type_checkers_import_exactly_all_from_the_same_modules() -> None:
    assert _type_checking_imports() == _lazy_table()


def _public_uses(text: str) -> set[str]:
    """The names ``text`` takes from chatcodec: ``chatcodec.<name>`` and ``from chatcodec import ...``."""
    used = set(re.findall(r"(?<![\w/.-])chatcodec\.([A-Za-z_]\w*)", text))
    imports = re.findall(r"^from chatcodec import \(([^)]*)\)", text, flags=re.MULTILINE)
    imports += re.findall(r"^from chatcodec import ([^(\n]+)$", text, flags=re.MULTILINE)
    for imported in imports:
        used |= {name.split(" as ")[0].strip() for name in imported.replace("\n", ",").split(",") if name.strip()}
    return used


def _submodule(name: str) -> bool:
    return importlib.util.find_spec(f"chatcodec.{name}") is not None


@pytest.mark.parametrize("document", ["README.md", "docs/getting-started.md", "tests/typing/check_public_types.py"])
def test_documents_use_only_names_in_all(document: str) -> None:
    used = _public_uses((ROOT / document).read_text(encoding="utf-8")) - {"__all__"}
    unknown = sorted(name for name in used if name not in chatcodec.__all__ and not _submodule(name))
    assert unknown == []
    assert used & set(chatcodec.__all__)  # the check found the names the document uses


@pytest.mark.parametrize("page", sorted((ROOT / "docs").rglob("*.md")), ids=lambda page: page.name)
def test_the_docs_pages_use_only_names_in_all(page: Path) -> None:
    from chatcodec.serve._request_log import EVENT_NAMES
    from chatcodec.serve._telemetry import TURN_ATTRIBUTES

    text = page.read_text(encoding="utf-8")
    for event in EVENT_NAMES:  # the gateway's log events (``chatcodec.model.request``) are names, not modules
        text = text.replace(event, "")
    for attribute in sorted(TURN_ATTRIBUTES, key=len, reverse=True):  # span attributes, likewise
        text = text.replace(attribute, "")
    used = _public_uses(text) - {
        "__all__",
        "codecs",
        "laws",
    }  # "chatcodec.codecs", "chatcodec.laws": entry-point groups
    assert sorted(name for name in used if name not in chatcodec.__all__ and not _submodule(name)) == []


def test_the_use_finder_reads_both_spellings() -> None:
    text = "x = chatcodec.Loss\nfrom chatcodec import (\n    ChatRequest,\n    Usage as U,\n)\n"
    assert _public_uses(text) == {"Loss", "ChatRequest", "Usage"}


def test_all_and_the_lazy_tables_are_written_from_the_imports() -> None:
    # tools/exports.py: the TYPE_CHECKING imports are the one list of chatcodec, its contract and its kit
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "exports.py"), "--check"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr


def test_the_codec_contract_is_importable_and_loads_no_model() -> None:
    from chatcodec import contract

    missing = [name for name in contract.__all__ if not hasattr(contract, name)]
    assert missing == []
    code = (
        "import sys, chatcodec.contract; "
        "loaded = [m for m in sys.modules if m.startswith(('pydantic', 'chatcodec.'))]; "
        "print(sorted(m for m in loaded if m != 'chatcodec.contract'))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert loaded.strip() == "[]"


def test_the_codec_contract_holds_what_the_template_folder_imports_from_the_house() -> None:
    # the template is the folder a third-party codec copies: every name it takes from chatcodec
    # outside its own folder is in the contract, the kit or the package's __all__
    from chatcodec import codec_kit, contract

    template = Path(chatcodec.__file__).parent / "_providers" / "_template"
    public = {*contract.__all__, *codec_kit.__all__, *chatcodec.__all__}
    taken: set[str] = set()
    for module in template.glob("*.py"):
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            module_name = node.module or "" if isinstance(node, ast.ImportFrom) else ""
            if (
                isinstance(node, ast.ImportFrom)
                and module_name.startswith("chatcodec")
                and "_template" not in module_name
            ):
                taken |= {alias.name for alias in node.names}
    assert taken
    assert sorted(taken - public) == []


def test_the_codec_contract_has_a_version_and_a_documented_promise() -> None:
    from chatcodec import contract

    assert type(contract.CONTRACT_VERSION) is int
    assert contract.CONTRACT_VERSION >= 1
    promise = (ROOT / "docs" / "contributing.md").read_text(encoding="utf-8")
    assert "### The contract's version" in promise
    assert f"(today `{contract.CONTRACT_VERSION}`)" in promise  # the page states the version it describes
