# The native module (python/src/lib.rs).
from typing import Any, Dict, List, Optional, Tuple

__version__: str
__all__ = ["__version__", "run", "commands"]

def run(argv: List[str], stdin: Optional[bytes] = ...) -> Tuple[bytes, int]: ...
def commands() -> List[Tuple[List[str], bool, List[Dict[str, Any]]]]: ...
