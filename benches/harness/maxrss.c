/*
 * maxrss: runs a program and writes its peak resident memory (ru_maxrss, KiB) to the file
 * named by $BENCH_MAXRSS_OUT, then exits with its exit code. Used by the benchmark harness
 * (docs/benchmarks.md) because a program started straight from the harness would inherit
 * the harness's own resident memory into its ru_maxrss (the kernel counts the forked copy
 * of the parent before exec); forked from this small program it inherits almost nothing.
 *
 *   BENCH_MAXRSS_OUT=FILE maxrss PROGRAM ARGS...
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    const char *out = getenv("BENCH_MAXRSS_OUT");
    if (argc < 2 || out == NULL) {
        fprintf(stderr, "usage: BENCH_MAXRSS_OUT=FILE maxrss PROGRAM ARGS...\n");
        return 2;
    }
    pid_t pid = fork();
    if (pid < 0) return 127;
    if (pid == 0) {
        execvp(argv[1], argv + 1);
        _exit(127);
    }
    int status = 0;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid) return 127;
    FILE *f = fopen(out, "w");
    if (f != NULL) {
        fprintf(f, "%ld\n", ru.ru_maxrss);
        fclose(f);
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
