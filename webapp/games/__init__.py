"""Games: the stored game and the actions on it (``store``), its pure play state (``playstate``), its hint ladder
(``hints``), what each cell shows (``boardview``), who may play it (``access``), the time model its predicted
minutes come from (``calibration``) and the job that fits it over every game (``learning``, its fit in
``timefit``), a player's own games (``history``) and speed (``speed``), a game rebuilt from its events
(``replay``), the daily puzzle (``daily``), the hint's words (``wording``) and the technique guide (``guide``)."""
