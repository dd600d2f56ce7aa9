"""Several processes as one site: leases and table ownership in Redis, the relay of a table's
messages, presence and limits across nodes."""
