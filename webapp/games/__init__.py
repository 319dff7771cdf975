"""Games: the stored game and the actions on it (``store``), its pure play state (``playstate``), its hint ladder
(``hints``), what each cell shows (``boardview``), who may play it (``access``) and the time model its predicted
minutes come from (``calibration``)."""
