"""The corpus as one SQLite database: its schema, full-text indexes, and Datasette's
metadata and plugins. Reads the corpus through `pipeline.corpus`."""
