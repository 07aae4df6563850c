"""The engine for numbered rules documents, shared by every numbered family.

- `numbers`: the numbering scheme interpreted (levels, joins, dots, letters, outline);
- `references`: the reference grammar (brackets, keywords, bare numbers, ranges, letters);
- `statements`: dates and the sentences that state versions (the one month table);
- `layout`: PDF body font, page furniture, wrapped lines and hyphens;
- `records`: drafts, labels (Example, Note) and list items;
- `engine`: a declared scheme read line by line (the `numbered` family);
- `finish`: depth, tree checks, references, errata, counts: the record contract.
"""
