"""What is netrunner's own in parsing its documents."""
