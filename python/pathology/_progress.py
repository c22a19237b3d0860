"""Progress of long calls: ``progress=True`` or a callback, as the command line's bars.

The command line draws a bar on a terminal for the work it counts: the trials of every
Monte Carlo command (``mc uct`` counts games), the settings of ``sweep``, the heights of
``trend``, the steps of the exact P-, N- and b-ary D-game engine, the work of
``reproduce`` (its steps weighted by their measured times, with the trials of each inside). From Python,
``progress=`` reports the same counts:

- ``progress=True`` writes one line to ``sys.stderr``, rewritten in place as the work goes
  (``mc dgame: 32768/100000 trials (33%)``), ended by a newline when the call ends;
- ``progress=callback`` calls ``callback(p)`` with a :class:`Progress` each time the counts
  changed (at most about 20 times a second, polled on the calling thread, so the callback
  runs there and may touch a notebook widget), and once more with the final count when a task
  ends (``p.finished``). If the callback raises, the call is cancelled and the exception
  propagates; no report is returned.

>>> import pathology
>>> seen = []
>>> report = pathology.mc_dgame(8, 0.1, 0.1, 20000, seed=1, progress=seen.append)
>>> last = seen[-1]
>>> (last.label, last.unit, last.done, last.total, last.finished)
('mc dgame', 'trials', 20000, 20000, True)
"""

from __future__ import annotations

import sys
from typing import Any, Callable, List, NamedTuple, Optional, Tuple, Union

__all__ = ["Progress", "ProgressArg"]


class Progress(NamedTuple):
    """The state of one running task of a call.

    ``label`` names what runs (``"mc uct"``, ``"sweep"``, ``"reproduce"``), ``unit`` what is
    counted (``"trials"``, ``"games"``, ``"settings"``, ``"work"``: ``reproduce``'s steps
    weighted by their measured times); ``done`` of ``total`` units are done; ``detail`` says
    what the task is at, when it says (``reproduce``: the step); ``finished`` is true on the
    task's last report; ``outer`` holds the tasks this one runs inside, outermost first
    (``reproduce``'s work around the trials of one step).
    """

    label: str
    unit: str
    done: int
    total: int
    detail: str = ""
    finished: bool = False
    outer: Tuple["Progress", ...] = ()

    @property
    def fraction(self) -> float:
        """``done / total`` (1.0 for an empty task)."""
        return self.done / self.total if self.total else 1.0

    def __str__(self) -> str:
        parts = []
        for stage in (*self.outer, self):
            text = f"{stage.label}: {stage.done}/{stage.total} {stage.unit}"
            if stage.detail:
                text += f" [{stage.detail}]"
            parts.append(text)
        return " > ".join(parts) + f" ({100 * self.fraction:.0f}%)"


ProgressArg = Union[None, bool, Callable[[Progress], Any]]


class _Printer:
    """``progress=True``: one line on ``sys.stderr``, rewritten in place."""

    def __init__(self) -> None:
        self.width = 0

    def __call__(self, progress: Progress) -> None:
        text = str(progress)
        stream = sys.stderr
        if stream is None:  # pythonw, or a closed stderr: nowhere to write
            return
        stream.write("\r" + text.ljust(self.width))
        self.width = len(text)
        if progress.finished and not progress.outer:
            stream.write("\n")
            self.width = 0
        stream.flush()

    def close(self) -> None:
        """Ends an unfinished line (a call stopped by an exception)."""
        if self.width and sys.stderr is not None:
            sys.stderr.write("\n")
            sys.stderr.flush()
            self.width = 0


def _native(
    progress: ProgressArg, name: str = "progress"
) -> Tuple[Optional[Callable[[List[Tuple[str, str, int, int, str]], bool], None]], Optional[_Printer]]:
    """The callback the native module takes for ``progress``, and the printer to close
    after the call (``progress=True``)."""
    if progress is None or progress is False:
        return None, None
    printer: Optional[_Printer] = None
    if progress is True:
        printer = _Printer()
        user: Callable[[Progress], Any] = printer
    elif callable(progress):
        user = progress
    else:
        raise TypeError(
            f"{name} must be True, False, None or a callable taking a pathology.Progress, "
            f"got {type(progress).__name__}"
        )

    def native(chain: List[Tuple[str, str, int, int, str]], ended: bool) -> None:
        stages = [Progress(label, unit, done, total, detail) for label, unit, done, total, detail in chain]
        *outer, last = stages
        user(last._replace(finished=ended, outer=tuple(outer)))

    return native, printer
