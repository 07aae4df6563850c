"""Null Signal Games' Netrunner Comprehensive Rules: the YAML source (`nsg-yaml`) and the web
page its generator makes (`nsg-html`)."""
