"""The I/O layer: reading and writing files safely, source positions, the one YAML dialect, the
shipped JSON Schemas. It knows nothing of fixtures, scores or rules (docs/architecture.md)."""

# Every module of the layer is public to the layers above it (docs/architecture.md).
__all__ = ["documents", "errors", "githistory", "gitstage", "inputs", "layout", "lazy", "paths", "positions",
           "schemacheck", "schemaregex", "schemastore", "suggest", "textfile", "userschema", "writing", "yamledit",
           "yamlload", "yamlwrite"]
