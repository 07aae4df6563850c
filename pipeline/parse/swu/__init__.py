"""Star Wars: Unlimited: the Comprehensive Rules PDF (family `swu-cr`), numbered by the
scheme its registry entry declares; only the typesetting is read here (see `cr`)."""
