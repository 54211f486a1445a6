/* The smallest firmware: exits 0. Used by the analysis tests of tinypte_firmware. */
int main(void) { return 0; }
