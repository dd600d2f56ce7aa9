"""Chat, friends, presence and invitations, and what a name or a message may hold."""
