"""What is fab's own in parsing its documents."""
