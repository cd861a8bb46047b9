/*
 * fuzz_util.h - what the libFuzzer harnesses share: writing an input to a
 * file, so that the file readers see it as well as the buffer parsers.
 */
#ifndef WT_FUZZ_UTIL_H
#define WT_FUZZ_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Writes data to a fresh temporary file named after the harness (name) and
 * the process; its path goes to path (cap bytes).  0 on success. */
static int fuzz_write_temp(const char *name, const uint8_t *data, size_t size, char *path,
                           size_t cap)
{
    snprintf(path, cap, "/tmp/%s_%ld.XXXXXX", name, (long)getpid());
    int fd = mkstemp(path);
    if (fd < 0) return -1;
    size_t done = 0;
    while (done < size) {
        ssize_t w = write(fd, data + done, size - done);
        if (w <= 0) break;
        done += (size_t)w;
    }
    close(fd);
    return done == size ? 0 : -1;
}

#endif
