"""The I/O layer: reading and writing files safely, source positions, the one YAML dialect, the
shipped JSON Schemas. It knows nothing of fixtures, scores or rules (docs/architecture.md)."""
