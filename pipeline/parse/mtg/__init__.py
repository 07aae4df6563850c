"""What is mtg's own in parsing its documents."""
