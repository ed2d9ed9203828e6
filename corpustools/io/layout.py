"""The names that make a folder a corpus on disk: corpus.yaml, and the sessions/, expected/ and
gold/ folders beside it. Defined here, below the corpus model, because writing must know them too:
it refuses to write into any corpus's own files (corpustools.io.writing)."""

SPEC_FILE = "corpus.yaml"
SESSIONS_DIR, SIDECARS_DIR, GOLD_DIR = "sessions", "expected", "gold"
SESSION_SUFFIX, SIDECAR_SUFFIX = ".md", ".yaml"
