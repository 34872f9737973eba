"""bufferlog frontend."""
