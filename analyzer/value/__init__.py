"""The learned win-chance model: what it reads of a position (:mod:`~analyzer.value.features`) and the
small network that turns it into each seat's chance to win (:mod:`~analyzer.value.model`), loaded with
numpy alone from the file shipped in this package."""
