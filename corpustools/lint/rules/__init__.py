"""One module per lint rule; see corpustools.lint for the protocol."""
