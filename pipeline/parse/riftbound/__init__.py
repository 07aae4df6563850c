"""What is riftbound's own in parsing its documents."""
