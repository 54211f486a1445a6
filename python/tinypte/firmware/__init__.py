"""C sources a firmware is built from: the program as a C array (`header`), the app's static data
(`app_data`) and the runtime's own sizing of what a program needs (`requirements`)."""
