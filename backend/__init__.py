"""bufferlog backend."""
