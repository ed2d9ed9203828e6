"""One module per subcommand: each registers its argparse parser and prints what the library
returns. No corpus logic lives here."""

# Order is the order `corpustools --help` lists them in.
COMMANDS = ("init", "lint", "score", "compare", "adjudicate", "calibrate", "agree", "reconcile", "render", "run", "import", "export", "provenance", "validate",
            "schema", "cache")
