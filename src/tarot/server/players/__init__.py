"""Players: accounts and sessions, chips and XP, ratings, statistics, the history of their
games, and what a viewer may not see yet."""
