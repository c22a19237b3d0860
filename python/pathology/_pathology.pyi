# The native module (python/src/lib.rs).
from typing import Any, Callable, Dict, List, Optional, Tuple

__version__: str
__all__ = ["__version__", "run", "commands", "cancel_group", "after_fork_in_child"]

def run(
    argv: List[str],
    stdin: Optional[bytes] = ...,
    progress: Optional[Callable[[List[Tuple[str, str, int, int, str]], bool], None]] = ...,
    group: Optional[int] = ...,
) -> Tuple[bytes, int]: ...
def cancel_group(group: int) -> None: ...
def after_fork_in_child() -> None: ...
def commands() -> List[Tuple[List[str], bool, List[Dict[str, Any]]]]: ...
