"""bufferlog engine."""
