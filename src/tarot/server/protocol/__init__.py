"""The websocket's messages, both ways (pydantic v2 models, tagged on ``type``): the client's in
``protocol.client`` (parsed by ``parse_client``), the server's in ``protocol.server`` (each a
model that builds itself, ``Welcome.build(…)``, and ``server_message`` to check one). This module
is their facade: callers say ``protocol.Join``, ``protocol.Error.build(…)``.
``docs/protocol.md`` lists both unions (a test keeps them equal).
"""

from .client import *  # noqa: F403
from .server import *  # noqa: F403
