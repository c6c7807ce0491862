/*
 * Many minimal WebSocket clients in one process, in C: the same clients, protocol and output as
 * clients.py, so the clients are never what limits a fan-out measurement (load.py --client c,
 * the default; it builds this file with gcc).
 *
 * Each client is a raw TCP socket: an RFC 6455 handshake, then a loop that splits the stream
 * into frames by their headers and, for text messages carrying `"emitted_us":`, reads that
 * number and `"seq":` with memmem (no JSON parsing). All sockets share one epoll loop.
 * Latency is taken twice per frame message against `emitted_us` (CLOCK_REALTIME, same machine):
 * kernel (the socket's SO_TIMESTAMPNS receive stamp) and user (the clock after the read).
 *
 * One line each way on stdin/stdout with the parent:
 *   (child)  connected N            all handshakes done
 *   (parent) measure SECONDS        reset counters, count for SECONDS, then
 *   (child)  {json result}
 *   (parent) quit                   (or EOF) close everything and exit
 *
 *   clients --port PORT --count N [--path /live?v=3] [--host 127.0.0.1] [--hidden] [--send MESSAGE]…
 *
 * --live-only: only frames of a live gesture (`load` -1) are counted and timed.
 * --hidden: each client says it is a background tab; --send (up to 4, in order): each client
 * sends MESSAGE (a text message) once connected, e.g. a `speed` so that every page has a view of
 * its own, or a `pause` then a `watch`.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define HIST_CAP_US 200000
#define BUFFER (1 << 20)
#define SPREAD (1 << 20)

typedef struct {
    int fd;
    unsigned char *buf;
    size_t len;
    long long last_seq;
} client_t;

static long long hist_kernel[HIST_CAP_US + 1], hist_user[HIST_CAP_US + 1];
static long long messages, frames_seen, gaps, closed_count;
/* seq -> emitted, first and last kernel stamp over this process's clients */
static long long spread_seq[SPREAD], spread_emitted[SPREAD], spread_first[SPREAD], spread_last[SPREAD];

static long long now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static double monotonic(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu_seconds(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + u.ru_stime.tv_sec + u.ru_stime.tv_usec / 1e6;
}

static int live_only = 0;

static void masked(int fd, int opcode, const unsigned char *payload, size_t n) {
    unsigned char frame[140];
    if (n > 125) n = 125;
    frame[0] = 0x80 | opcode;
    frame[1] = 0x80 | (unsigned char)n;
    memset(frame + 2, 0, 4); /* a zero mask keeps the payload as it is */
    memcpy(frame + 6, payload, n);
    (void)send(fd, frame, 6 + n, MSG_NOSIGNAL);
}

static int handshake(const char *host, int port, const char *path, client_t *c) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, host, &a.sin_addr);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) return -1;
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
    char request[1024];
    int n = snprintf(request, sizeof request,
                     "GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
                     path, host, port);
    if (send(fd, request, n, 0) != n) return -1;
    c->fd = fd;
    c->buf = malloc(BUFFER);
    c->len = 0;
    c->last_seq = -1;
    for (;;) {
        ssize_t got = recv(fd, c->buf + c->len, BUFFER - c->len, 0);
        if (got <= 0) return -1;
        c->len += got;
        unsigned char *end = memmem(c->buf, c->len, "\r\n\r\n", 4);
        if (end) {
            if (c->len < 12 || memcmp(c->buf, "HTTP/1.1 101", 12) != 0) return -1;
            size_t head = end + 4 - c->buf;
            memmove(c->buf, c->buf + head, c->len - head);
            c->len -= head;
            return 0;
        }
    }
}

static long long number_after(const unsigned char *at, const unsigned char *end) {
    long long v = 0;
    while (at < end && *at >= '0' && *at <= '9') v = v * 10 + (*at++ - '0');
    return v;
}

/* Splits complete frames off the client's buffer; counts them when `counting`. */
static void consume(client_t *c, long long kernel, long long user, int counting) {
    size_t pos = 0;
    while (c->len - pos >= 2) {
        unsigned char *b = c->buf + pos;
        size_t length = b[1] & 0x7F, header = 2;
        if (length == 126) {
            if (c->len - pos < 4) break;
            length = ((size_t)b[2] << 8) | b[3];
            header = 4;
        } else if (length == 127) {
            if (c->len - pos < 10) break;
            length = 0;
            for (int i = 0; i < 8; i++) length = (length << 8) | b[2 + i];
            header = 10;
        }
        if (c->len - pos < header + length) break;
        int opcode = b[0] & 0x0F;
        const unsigned char *payload = b + header, *end = payload + length;
        if (opcode == 1 && counting) {
            messages++;
            const unsigned char *e = memmem(payload, length, "\"emitted_us\":", 13);
            /* --live-only: a live gesture's frames (load -1) only, not a replay's. */
            if (e && live_only && !memmem(payload, length, "\"load\":-1", 9)) e = NULL;
            if (e) {
                long long emitted = number_after(e + 13, end);
                frames_seen++;
                long long lat = kernel - emitted;
                hist_kernel[lat < 0 ? 0 : (lat < HIST_CAP_US ? lat : HIST_CAP_US)]++;
                lat = user - emitted;
                hist_user[lat < 0 ? 0 : (lat < HIST_CAP_US ? lat : HIST_CAP_US)]++;
                const unsigned char *s = memmem(payload, length, "\"seq\":", 6);
                if (s) {
                    long long seq = number_after(s + 6, end);
                    if (c->last_seq >= 0 && seq > c->last_seq + 1) gaps += seq - c->last_seq - 1;
                    c->last_seq = seq;
                    size_t slot = (size_t)seq & (SPREAD - 1);
                    if (spread_seq[slot] != seq + 1) {
                        spread_seq[slot] = seq + 1;
                        spread_emitted[slot] = emitted;
                        spread_first[slot] = spread_last[slot] = kernel;
                    } else if (kernel < spread_first[slot]) {
                        spread_first[slot] = kernel;
                    } else if (kernel > spread_last[slot]) {
                        spread_last[slot] = kernel;
                    }
                }
            }
        } else if (opcode == 9) { /* ping: answer, or the server hangs up */
            masked(c->fd, 0xA, payload, length);
        }
        pos += header + length;
    }
    memmove(c->buf, c->buf + pos, c->len - pos);
    c->len -= pos;
}

static void report(double seconds, int clients, double cpu) {
    printf("{\"seconds\":%.6f,\"messages\":%lld,\"frames\":%lld,\"gaps\":%lld,\"closed\":%lld,\"clients\":%d,\"cpu_s\":%.6f",
           seconds, messages, frames_seen, gaps, closed_count, clients, cpu);
    const char *names[2] = {"kernel_hist", "user_hist"};
    long long *hists[2] = {hist_kernel, hist_user};
    for (int h = 0; h < 2; h++) {
        printf(",\"%s\":{", names[h]);
        int first = 1;
        for (int i = 0; i <= HIST_CAP_US; i++)
            if (hists[h][i]) {
                printf("%s\"%d\":%lld", first ? "" : ",", i, hists[h][i]);
                first = 0;
            }
        printf("}");
    }
    printf(",\"spread\":{");
    int first = 1;
    for (size_t i = 0; i < SPREAD; i++)
        if (spread_seq[i]) {
            printf("%s\"%lld\":[%lld,%lld,%lld]", first ? "" : ",", spread_seq[i] - 1, spread_emitted[i], spread_first[i], spread_last[i]);
            first = 0;
        }
    printf("}}\n");
    fflush(stdout);
}

static void reset(client_t *clients, int count) {
    messages = frames_seen = gaps = 0;
    memset(hist_kernel, 0, sizeof hist_kernel);
    memset(hist_user, 0, sizeof hist_user);
    memset(spread_seq, 0, sizeof spread_seq);
    for (int i = 0; i < count; i++) clients[i].last_seq = -1;
}

int main(int argc, char **argv) {
    const char *host = "127.0.0.1", *path = "/live?v=3";
    int port = 0, count = 0, hidden = 0;
    const char *sends[4];
    int send_count = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--port") && i + 1 < argc) port = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--count") && i + 1 < argc) count = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--path") && i + 1 < argc) path = argv[++i];
        else if (!strcmp(argv[i], "--host") && i + 1 < argc) host = argv[++i];
        else if (!strcmp(argv[i], "--hidden")) hidden = 1;
        else if (!strcmp(argv[i], "--live-only")) live_only = 1;
        else if (!strcmp(argv[i], "--send") && i + 1 < argc && send_count < 4) sends[send_count++] = argv[++i];
        else {
            fprintf(stderr, "clients: unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    if (port <= 0 || count <= 0) {
        fprintf(stderr, "usage: clients --port PORT --count N [--path P] [--host H] [--hidden] [--send MESSAGE]\n");
        return 2;
    }
    client_t *clients = calloc(count, sizeof *clients);
    int ep = epoll_create1(0);
    for (int i = 0; i < count; i++) {
        if (handshake(host, port, path, &clients[i]) != 0) {
            fprintf(stderr, "clients: handshake %d failed: %s\n", i, strerror(errno));
            return 1;
        }
        if (hidden) {
            const char *m = "{\"type\":\"visible\",\"visible\":false}";
            masked(clients[i].fd, 0x1, (const unsigned char *)m, strlen(m));
        }
        for (int k = 0; k < send_count; k++) masked(clients[i].fd, 0x1, (const unsigned char *)sends[k], strlen(sends[k]));
        struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
        epoll_ctl(ep, EPOLL_CTL_ADD, clients[i].fd, &ev);
    }
    struct epoll_event in = {.events = EPOLLIN, .data.u32 = UINT32_MAX};
    epoll_ctl(ep, EPOLL_CTL_ADD, STDIN_FILENO, &in);
    printf("connected %d\n", count);
    fflush(stdout);

    double measuring_until = -1, started = 0, cpu_start = 0;
    char command[256];
    size_t command_len = 0;
    struct epoll_event events[1024];
    char control[CMSG_SPACE(sizeof(struct timespec))];
    for (;;) {
        int timeout = -1;
        if (measuring_until >= 0) {
            double left = measuring_until - monotonic();
            timeout = left > 0 ? (int)(left * 1000) + 1 : 0;
        }
        int n = epoll_wait(ep, events, 1024, timeout);
        if (measuring_until >= 0 && monotonic() >= measuring_until) {
            report(monotonic() - started, count - (int)closed_count, cpu_seconds() - cpu_start);
            measuring_until = -1;
        }
        for (int e = 0; e < n; e++) {
            uint32_t id = events[e].data.u32;
            if (id == UINT32_MAX) {
                ssize_t got = read(STDIN_FILENO, command + command_len, sizeof command - 1 - command_len);
                if (got <= 0) return 0;
                command_len += got;
                command[command_len] = 0;
                char *newline;
                while ((newline = strchr(command, '\n'))) {
                    *newline = 0;
                    if (!strncmp(command, "quit", 4)) return 0;
                    if (!strncmp(command, "measure ", 8)) {
                        reset(clients, count);
                        started = monotonic();
                        cpu_start = cpu_seconds();
                        measuring_until = started + atof(command + 8);
                    }
                    size_t rest = command_len - (newline + 1 - command);
                    memmove(command, newline + 1, rest);
                    command_len = rest;
                    command[command_len] = 0;
                }
                continue;
            }
            client_t *c = &clients[id];
            struct iovec iov = {.iov_base = c->buf + c->len, .iov_len = BUFFER - c->len};
            struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control};
            ssize_t got = recvmsg(c->fd, &msg, MSG_DONTWAIT);
            if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) continue;
            if (got <= 0) {
                epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
                close(c->fd);
                closed_count++;
                continue;
            }
            long long user = now_us(), kernel = user;
            for (struct cmsghdr *cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm))
                if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SO_TIMESTAMPNS) {
                    struct timespec ts;
                    memcpy(&ts, CMSG_DATA(cm), sizeof ts);
                    kernel = (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
                }
            c->len += got;
            consume(c, kernel, user, measuring_until >= 0);
        }
    }
}
