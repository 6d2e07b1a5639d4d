"""Regenerates the protobuf and gRPC stubs from ``proto/cardroom/v1/cardroom.proto``.

The generated modules (``cardroom/v1/cardroom_pb2.py``, ``cardroom_pb2_grpc.py`` and
``cardroom_pb2.pyi``) are committed, so that installing the SDK needs no code generator. After a
change to the contract, run from the repository (with the ``dev`` extra installed)::

    python -m cardroom._generate

``tests/test_generated.py`` fails while the committed files differ from what this produces.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

#: The package's source directory (``sdk/python/src``).
SOURCE_ROOT = Path(__file__).resolve().parent.parent
#: The contract's include root (``proto/`` at the top of the repository).
PROTO_ROOT = SOURCE_ROOT.parent.parent.parent / "proto"
#: The contract, relative to :data:`PROTO_ROOT`; its path decides the module ``cardroom.v1``.
PROTO_FILE = "cardroom/v1/cardroom.proto"
#: The generated files, relative to the source directory.
GENERATED = (
    "cardroom/v1/cardroom_pb2.py",
    "cardroom/v1/cardroom_pb2.pyi",
    "cardroom/v1/cardroom_pb2_grpc.py",
)


def generate(out: Path) -> list[Path]:
    """Runs ``grpc_tools.protoc`` on the contract, writing the stubs under ``out``.

    Returns the generated files. Raises ``RuntimeError`` when the contract is not found (an
    installed copy of the SDK, outside the repository) or protoc fails.
    """
    from grpc_tools import protoc  # The dev extra: only needed to regenerate.

    if not (PROTO_ROOT / PROTO_FILE).is_file():
        raise RuntimeError(f"{PROTO_ROOT / PROTO_FILE} not found: run from the cardroom repository")
    (out / "cardroom" / "v1").mkdir(parents=True, exist_ok=True)
    code = protoc.main(
        [
            "grpc_tools.protoc",
            f"-I{PROTO_ROOT}",
            f"--python_out={out}",
            f"--pyi_out={out}",
            f"--grpc_python_out={out}",
            PROTO_FILE,
        ]
    )
    if code != 0:
        raise RuntimeError(f"grpc_tools.protoc failed with exit code {code}")
    return [out / name for name in GENERATED]


def stale_files() -> list[str]:
    """The committed generated files that differ from a fresh generation (empty when current)."""
    with tempfile.TemporaryDirectory() as tmp:
        generate(Path(tmp))
        return [
            name
            for name in GENERATED
            if not (SOURCE_ROOT / name).is_file()
            or (SOURCE_ROOT / name).read_bytes() != (Path(tmp) / name).read_bytes()
        ]


def main(argv: list[str] | None = None) -> int:
    """Command line: regenerate in place, or with ``--check`` only report stale files."""
    parser = argparse.ArgumentParser(prog="python -m cardroom._generate", description=__doc__)
    parser.add_argument(
        "--check", action="store_true", help="fail if the committed stubs are stale"
    )
    args = parser.parse_args(argv)
    if args.check:
        stale = stale_files()
        for name in stale:
            print(f"stale: {name} (run python -m cardroom._generate)", file=sys.stderr)
        return 1 if stale else 0
    for path in generate(SOURCE_ROOT):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
