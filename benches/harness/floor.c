/*
 * The floor of the benchmark harness (docs/benchmarks.md): the least a terminal prompt can
 * do. It opens /dev/tty, puts it in raw mode, switches to the alternate screen and writes a
 * menu in one write; each arrow key redraws one line. Enter, Esc, q or Ctrl+C restore the
 * terminal and print the chosen index on stdout.
 *
 *   floor PROMPT N          a menu of N items under PROMPT (at most 20 drawn)
 *   floor PROMPT N line     PROMPT and one line "› Option K of N", redrawn per arrow key
 *
 * Built by the harness with `cc -O2`.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static int put(int fd, const char *s, size_t len) {
    while (len > 0) {
        ssize_t w = write(fd, s, len);
        if (w <= 0) return -1;
        s += w;
        len -= (size_t)w;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: floor PROMPT N [line]\n");
        return 2;
    }
    const char *prompt = argv[1];
    long n = atol(argv[2]);
    int line_mode = argc > 3 && strcmp(argv[3], "line") == 0;
    if (n < 1) n = 1;
    int fd = open("/dev/tty", O_RDWR);
    if (fd < 0) return 3;
    struct termios saved, raw;
    if (tcgetattr(fd, &saved) != 0) return 3;
    raw = saved;
    cfmakeraw(&raw);
    tcsetattr(fd, TCSANOW, &raw);

    char buf[8192];
    int len = snprintf(buf, sizeof buf, "\x1b[?1049h\x1b[H\x1b[2J\x1b[?25l%s\r\n\r\n", prompt);
    if (line_mode) {
        len += snprintf(buf + len, sizeof buf - len, "\xe2\x80\xba Option 1 of %ld", n);
    } else {
        long shown = n < 20 ? n : 20;
        for (long i = 0; i < shown; i++)
            len += snprintf(buf + len, sizeof buf - len, "%s %ld. Option %ld\r\n",
                            i == 0 ? "\xe2\x80\xba" : " ", i + 1, i + 1);
    }
    put(fd, buf, (size_t)len);

    long sel = 0;
    char key[64];
    for (;;) {
        ssize_t r = read(fd, key, sizeof key);
        if (r <= 0) break;
        if (r >= 3 && key[0] == 27 && key[1] == '[' && (key[2] == 'A' || key[2] == 'B')) {
            sel = key[2] == 'B' ? (sel + 1) % n : (sel + n - 1) % n;
            if (line_mode) {
                len = snprintf(buf, sizeof buf, "\r\x1b[2K\xe2\x80\xba Option %ld of %ld", sel + 1, n);
                put(fd, buf, (size_t)len);
            }
        } else if (key[0] == '\r' || key[0] == 'q' || key[0] == 3 || (key[0] == 27 && r == 1)) {
            break;
        }
    }
    put(fd, "\x1b[?25h\x1b[?1049l", 14);
    tcsetattr(fd, TCSANOW, &saved);
    printf("%ld\n", sel);
    return 0;
}
