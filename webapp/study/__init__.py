"""Studies: the participant's pages (``views``, the ``study`` blueprint), studies and their participants
(``studies``), the job that prepares a study (``preparing``), its phases (``lifecycle``), the participant's rights
(``rights``), its questionnaire (``questions``) and its consent text (``consent``)."""
