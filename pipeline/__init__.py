"""rulescorpus: a verified, versioned, diffable corpus of trading-card-game rules."""

__version__ = "0.1.0"
