"""Trainer samples in each RL trainer's own shape: one module per trainer, each naming the file and
version of the trainer whose field names it writes (:func:`chatcodec.trainer_rows` chooses one by
name, :mod:`.table` lists them). Plain data only: no trainer is imported, so a row is checked
against the trainer's own types by ``make check-consumers``, not here.
"""
