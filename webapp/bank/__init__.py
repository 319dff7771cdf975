"""The puzzle bank: rated puzzles stored ahead of play, served once each as isomorphs (``pool``), the shipped seed
set (``seed``, ``seed_bank/``), the background refill process (``refill``), the bank-fill job (``fill``), the
search for fresh puzzles at the top (``top``) and the ``flask pool`` commands (``cli``)."""
