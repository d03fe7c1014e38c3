"""Errors shared by the modules of the Python port of agentfence.

An operation that refuses its input raises ``PortError(kind, message)``;
the protocol loop (agentfence_port.py) turns it into the reply
``{"error": {"kind": kind, "message": message}}``. Only ``kind`` is
compared with a vector's ``expected_error.kind``; ``message`` is for people.
"""


class PortError(Exception):
    """An operation refused its input with a stable error kind."""

    def __init__(self, kind, message=""):
        super().__init__(kind, message)
        self.kind = str(kind)
        self.message = str(message)

    def __str__(self):
        return "%s: %s" % (self.kind, self.message)
