"""UF2 images for drag-and-drop flashing (the Pico 2 W)."""
