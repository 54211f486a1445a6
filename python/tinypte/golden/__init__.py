"""Golden data: the binary format firmware reads (`format`) and the stage computing it (`command`)."""
