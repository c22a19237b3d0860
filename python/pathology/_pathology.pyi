# The native module (python/src/lib.rs).
from typing import Any, Callable, Dict, List, Optional, Tuple

__version__: str
__all__ = ["__version__", "run", "commands"]

def run(
    argv: List[str],
    stdin: Optional[bytes] = ...,
    progress: Optional[Callable[[List[Tuple[str, str, int, int, str]], bool], None]] = ...,
) -> Tuple[bytes, int]: ...
def commands() -> List[Tuple[List[str], bool, List[Dict[str, Any]]]]: ...
