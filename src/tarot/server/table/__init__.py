"""A table: its actor (the one owner of its state), its state and events, the handlers that
return them, and what each seat is sent."""
