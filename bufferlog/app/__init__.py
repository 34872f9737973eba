"""Applications built on the library: corpus batch runs (``batch``) and their reports
(``report``: JSON, CSV, HTML)."""
