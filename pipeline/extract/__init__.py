"""Bytes -> text lines with positions. One module per engine; only these import the engines."""
