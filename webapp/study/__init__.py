"""Studies: the participant's pages (``views``, the ``study`` blueprint), studies and their participants
(``studies``), and the job that prepares a study (``preparing``)."""
