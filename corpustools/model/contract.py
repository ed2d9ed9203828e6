"""Advisory checks of the extraction prompt's contract that the proposal-output schema leaves out.

They never make a result invalid: `validate` prints them as warnings and the scorer lists them
as `contract:` diagnostics.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_TITLE = 80
MAX_DESCRIPTION = 140
MIN_TAGS, MAX_TAGS = 1, 5


@dataclass(frozen=True)
class ContractWarning:
    proposal: str  # e.g. "practice[0]"
    what: str  # e.g. "title-too-long"
    detail: str

    def __str__(self) -> str:
        return f"{self.proposal}: {self.what}: {self.detail}"


def proposals(output: dict) -> list[tuple[str, dict]]:
    """Proposals in scoring order: practice then map, array order, named `practice[i]`/`map[i]`."""
    named = []
    for kind in ("practice", "map"):
        for index, proposal in enumerate(output.get(kind) or []):
            named.append((f"{kind}[{index}]", proposal))
    return named


def contract_warnings(output: dict) -> list[ContractWarning]:
    """Warnings for a schema-valid proposal output."""
    warnings = []
    for name, proposal in proposals(output):
        array = name.split("[", 1)[0]
        if proposal["type"] != array:
            warnings.append(ContractWarning(name, "type-mismatch", f"type is {proposal['type']!r} inside {array!r}"))
        tags = proposal["tags"]
        if not MIN_TAGS <= len(tags) <= MAX_TAGS:
            warnings.append(ContractWarning(name, "tag-count", f"{len(tags)} tags, expected {MIN_TAGS}-{MAX_TAGS}"))
        for tag in tags:
            if tag != tag.lower():
                warnings.append(ContractWarning(name, "tag-case", f"tag {tag!r} is not lowercase"))
        if len(proposal["title"]) > MAX_TITLE:
            warnings.append(ContractWarning(name, "title-too-long", f"{len(proposal['title'])} characters, max {MAX_TITLE}"))
        if len(proposal["description"]) > MAX_DESCRIPTION:
            warnings.append(ContractWarning(
                name, "description-too-long", f"{len(proposal['description'])} characters, max {MAX_DESCRIPTION}"))
        for key in ("title", "description", "body"):
            if not proposal[key].strip():
                warnings.append(ContractWarning(name, "empty-string", f"{key} is empty"))
        for tag in tags:
            if not tag.strip():
                warnings.append(ContractWarning(name, "empty-string", "a tag is empty"))
    return warnings
