"""Datasette as the corpus's web UI and API: the metadata an export writes, and the
packaged plugin and template that show a rule's Source block (installed with the
`serve` extra: pip install 'rulescorpus[serve]')."""
