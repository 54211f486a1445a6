/* The consumer's console and exit (console_semihost.c: picolibc's semihosting). */
#ifndef CONSUMER_CONSOLE_H
#define CONSUMER_CONSOLE_H

void console_write(const char *text);
void console_exit(int status);

#endif /* CONSUMER_CONSOLE_H */
