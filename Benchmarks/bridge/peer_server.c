/*
 * The C peer for the bridge load benchmark (Benchmarks/bridge/load.py): the smallest
 * broadcast server one would write on libwebsockets itself, coalescing what waits.
 *
 * One lws context and service thread; a producer thread makes one frame every 1/RATE s (the
 * captured frames in turn, `seq` and `emitted_us` filled in), frames it as one unmasked text
 * WebSocket message (RFC 6455 section 5.2), queues it and wakes the service loop with
 * lws_cancel_service(), the one lws call documented as safe from another thread. On
 * LWS_CALLBACK_EVENT_WAIT_CANCELLED the service thread appends each queued frame to every
 * client's pending bytes and asks for WRITEABLE; on LWS_CALLBACK_SERVER_WRITEABLE it sends
 * everything pending in one lws_write(..., LWS_WRITE_RAW): frames that waited for a writable
 * socket leave in one send(), still separate WebSocket messages. A client whose pending bytes
 * would exceed PENDING_CAP loses the newest frame instead (the `seq` gap shows it), so a slow
 * reader costs bounded memory. Frames are produced only while someone is connected and
 * playback is not paused (a text message containing "pause" or "play" toggles it), as the
 * bridge and the reference do.
 *
 *   cc -O2 -o peer_server peer_server.c $(pkg-config --cflags --libs libwebsockets) -lpthread
 *   peer_server --frames FRAMES.txt --rate 120 [--port 0] [--host 127.0.0.1]
 *   peer_server --timeline TIMELINE.txt [--port 0] [--host 127.0.0.1]
 *
 * FRAMES.txt holds one frame message a line, compact JSON with the placeholders @S@ (seq) and
 * @E@ (emitted_us) for the two numbers (load.py writes it). The first line on stdout, once the
 * socket listens, is `listening on HOST:PORT`.
 *
 * TIMELINE.txt (device_fanout.py writes it) is every message one watching page was sent over
 * one cycle of a device's gestures, a line each: the microseconds since the cycle began, a tab,
 * the message. Lines with the two placeholders are frames as above; the others (the released
 * gesture's series, the library, the device's status) go as they are, are never dropped and
 * grow a slow client's pending bytes past PENDING_CAP as needed. The cycle repeats: the peer
 * broadcasts the same bytes at the same moments as the bridge did.
 */
#define _GNU_SOURCE /* memmem */
#include <libwebsockets.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PENDING_CAP (64 * 1024)
#define QUEUE_CAP 256
#define CATCH_UP 16 /* the most frames one wake-up makes to catch up */
#define MAX_HEADER 10

struct template { /* text, first number, middle, second number, rest */
	char *text;
	size_t head, middle, tail;    /* lengths of the three pieces of text */
	const char *middle_at, *tail_at;
	int seq_first;                /* whether the first number is seq (else emitted_us) */
	int fixed;                    /* no placeholders: sent as it is and never dropped */
	int64_t offset_us;            /* --timeline: when in the cycle it is sent */
};

struct frame { /* one framed message, LWS_PRE headroom unused (raw writes) */
	size_t length;
	int fixed;
	unsigned char bytes[];
};

struct client {
	struct lws *wsi;
	struct client *next, *previous;
	size_t pending, capacity;
	unsigned char *buffer; /* LWS_PRE + capacity bytes; capacity grows past PENDING_CAP only for fixed messages */
};

static struct template *templates;
static size_t template_count;
static double rate = 120;
static int timeline;
static struct lws_context *context;
static struct client *clients;
static atomic_int client_count, paused, stopping;
static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t activity = PTHREAD_COND_INITIALIZER; /* someone connected, played or stop */
static struct frame *queue[QUEUE_CAP];
static size_t queued;

static int64_t realtime_us(void)
{
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	return (int64_t)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

/* A text frame's header (FIN, text, then a 7-, 16- or 64-bit length); returns where the payload goes. */
static unsigned char *frame_header(unsigned char *p, size_t payload)
{
	*p++ = 0x81; /* FIN, text */
	if (payload < 126) {
		*p++ = (unsigned char)payload;
	} else if (payload < 65536) {
		*p++ = 126;
		*p++ = (unsigned char)(payload >> 8);
		*p++ = (unsigned char)payload;
	} else {
		*p++ = 127;
		for (int i = 7; i >= 0; i--)
			*p++ = (unsigned char)((uint64_t)payload >> (8 * i));
	}
	return p;
}

static struct frame *make_frame(const struct template *t, uint64_t seq)
{
	if (t->fixed) {
		size_t payload = t->head;
		struct frame *f = malloc(sizeof *f + MAX_HEADER + payload);
		if (!f)
			return NULL;
		unsigned char *p = frame_header(f->bytes, payload);
		memcpy(p, t->text, payload), p += payload;
		f->length = (size_t)(p - f->bytes);
		f->fixed = 1;
		return f;
	}
	char seq_text[24], emitted_text[24];
	int seq_length = snprintf(seq_text, sizeof seq_text, "%llu", (unsigned long long)seq);
	int emitted_length = snprintf(emitted_text, sizeof emitted_text, "%lld", (long long)realtime_us());
	size_t payload = t->head + (size_t)seq_length + t->middle + (size_t)emitted_length + t->tail;
	const char *first = t->seq_first ? seq_text : emitted_text, *second = t->seq_first ? emitted_text : seq_text;
	size_t first_length = (size_t)(t->seq_first ? seq_length : emitted_length);
	size_t second_length = (size_t)(t->seq_first ? emitted_length : seq_length);
	struct frame *f = malloc(sizeof *f + MAX_HEADER + payload);
	if (!f)
		return NULL;
	unsigned char *p = frame_header(f->bytes, payload);
	memcpy(p, t->text, t->head), p += t->head;
	memcpy(p, first, first_length), p += first_length;
	memcpy(p, t->middle_at, t->middle), p += t->middle;
	memcpy(p, second, second_length), p += second_length;
	memcpy(p, t->tail_at, t->tail), p += t->tail;
	f->length = (size_t)(p - f->bytes);
	f->fixed = 0;
	return f;
}

static void *produce(void *unused)
{
	(void)unused;
	uint64_t seq = 0;
	size_t index = 0;
	int64_t period_ns = (int64_t)(1e9 / rate);
	struct timespec next, cycle_start = {0, 0};
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!atomic_load(&stopping)) {
		if (atomic_load(&client_count) == 0 || atomic_load(&paused)) {
			/* Idle without a timer until someone watches, as the bridge and the reference. */
			pthread_mutex_lock(&queue_lock);
			while (!atomic_load(&stopping) && (atomic_load(&client_count) == 0 || atomic_load(&paused)))
				pthread_cond_wait(&activity, &queue_lock);
			pthread_mutex_unlock(&queue_lock);
			clock_gettime(CLOCK_MONOTONIC, &next);
			continue;
		}
		if (timeline) {
			/* The cycle's messages at their moments, then the cycle again. */
			if (index == 0)
				cycle_start = next;
			int64_t at_ns = (int64_t)cycle_start.tv_sec * 1000000000 + cycle_start.tv_nsec + templates[index].offset_us * 1000;
			next.tv_sec = at_ns / 1000000000;
			next.tv_nsec = at_ns % 1000000000;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		/* Every frame due since the wake-up was due, up to CATCH_UP, then skip: the bridge's
		 * `--bench-frame-rate` catch-up. A timeline sends one message a wake-up, on time. */
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		int64_t next_ns = (int64_t)next.tv_sec * 1000000000 + next.tv_nsec;
		int64_t now_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
		int64_t due = timeline ? 1 : (now_ns - next_ns) / period_ns + 1;
		if (due > CATCH_UP)
			due = CATCH_UP;
		pthread_mutex_lock(&queue_lock);
		for (int64_t k = 0; k < due; k++) {
			struct frame *f = make_frame(&templates[index], templates[index].fixed ? seq : ++seq);
			index = (index + 1) % template_count;
			if (f && queued < QUEUE_CAP)
				queue[queued++] = f;
			else
				free(f);
		}
		pthread_mutex_unlock(&queue_lock);
		lws_cancel_service(context);
		if (timeline) {
			if (index == 0) {
				int64_t end_ns = (int64_t)cycle_start.tv_sec * 1000000000 + cycle_start.tv_nsec
					+ (templates[template_count - 1].offset_us * 1000 + period_ns);
				next.tv_sec = end_ns / 1000000000;
				next.tv_nsec = end_ns % 1000000000;
			}
			continue;
		}
		next_ns += due * period_ns;
		if (next_ns < now_ns - CATCH_UP * period_ns)
			next_ns = now_ns - CATCH_UP * period_ns;
		next.tv_sec = next_ns / 1000000000;
		next.tv_nsec = next_ns % 1000000000;
	}
	return NULL;
}

static void wake_producer(void)
{
	pthread_mutex_lock(&queue_lock);
	pthread_cond_signal(&activity);
	pthread_mutex_unlock(&queue_lock);
}

static void fan_out(void)
{
	struct frame *taken[QUEUE_CAP];
	pthread_mutex_lock(&queue_lock);
	size_t count = queued;
	memcpy(taken, queue, count * sizeof taken[0]);
	queued = 0;
	pthread_mutex_unlock(&queue_lock);
	for (size_t i = 0; i < count; i++) {
		for (struct client *c = clients; c; c = c->next) {
			if (c->pending + taken[i]->length > c->capacity) {
				if (!taken[i]->fixed)
					continue; /* a slow reader skips this frame */
				size_t capacity = c->pending + taken[i]->length;
				unsigned char *grown = realloc(c->buffer, LWS_PRE + capacity);
				if (!grown)
					continue;
				c->buffer = grown;
				c->capacity = capacity;
			}
			memcpy(c->buffer + LWS_PRE + c->pending, taken[i]->bytes, taken[i]->length);
			c->pending += taken[i]->length;
		}
		free(taken[i]);
	}
	if (count)
		for (struct client *c = clients; c; c = c->next)
			if (c->pending)
				lws_callback_on_writable(c->wsi);
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
	struct client *c = user;
	switch (reason) {
	case LWS_CALLBACK_ESTABLISHED:
		c->wsi = wsi;
		c->pending = 0;
		c->capacity = PENDING_CAP;
		c->buffer = malloc(LWS_PRE + PENDING_CAP);
		if (!c->buffer)
			return -1;
		c->previous = NULL;
		c->next = clients;
		if (clients)
			clients->previous = c;
		clients = c;
		atomic_fetch_add(&client_count, 1);
		wake_producer();
		return 0;
	case LWS_CALLBACK_CLOSED:
		if (c->previous)
			c->previous->next = c->next;
		else
			clients = c->next;
		if (c->next)
			c->next->previous = c->previous;
		atomic_fetch_sub(&client_count, 1);
		free(c->buffer);
		c->buffer = NULL;
		return 0;
	case LWS_CALLBACK_RECEIVE:
		if (in && len && memmem(in, len, "\"pause\"", 7))
			atomic_store(&paused, 1);
		else if (in && len && memmem(in, len, "\"play\"", 6)) {
			atomic_store(&paused, 0);
			wake_producer();
		}
		return 0;
	case LWS_CALLBACK_SERVER_WRITEABLE:
		if (c->pending) {
			size_t n = c->pending;
			c->pending = 0;
			/* Raw: the bytes are whole frames already; lws keeps what send() did not take. */
			if (lws_write(wsi, c->buffer + LWS_PRE, n, LWS_WRITE_RAW) < (int)n)
				return -1;
			if (c->capacity > PENDING_CAP) { /* back to the usual size after a large message */
				unsigned char *shrunk = realloc(c->buffer, LWS_PRE + PENDING_CAP);
				if (shrunk) {
					c->buffer = shrunk;
					c->capacity = PENDING_CAP;
				}
			}
		}
		return 0;
	case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
		fan_out();
		return 0;
	default:
		return lws_callback_http_dummy(wsi, reason, user, in, len);
	}
}

static struct lws_protocols protocols[] = {
	{"peer", callback, sizeof(struct client), 16 * 1024, 0, NULL, 0},
	{NULL, NULL, 0, 0, 0, NULL, 0},
};

static void load_templates(const char *path)
{
	FILE *file = fopen(path, "r");
	if (!file) {
		fprintf(stderr, "peer_server: cannot open %s\n", path);
		exit(1);
	}
	char *line = NULL;
	size_t capacity = 0;
	ssize_t length;
	while ((length = getline(&line, &capacity, file)) > 0) {
		while (length && (line[length - 1] == '\n' || line[length - 1] == '\r'))
			line[--length] = 0;
		if (!length)
			continue;
		char *text = line;
		int64_t offset_us = 0;
		if (timeline) {
			char *tab = strchr(line, '\t');
			if (!tab) {
				fprintf(stderr, "peer_server: %s line %zu: no tab after the offset\n", path, template_count + 1);
				exit(1);
			}
			*tab = 0;
			offset_us = atoll(line);
			text = tab + 1;
			length -= (ssize_t)(text - line);
		}
		char *s = strstr(text, "@S@"), *e = strstr(text, "@E@");
		if (timeline && !s && !e) {
			templates = realloc(templates, (template_count + 1) * sizeof *templates);
			struct template *t = &templates[template_count++];
			memset(t, 0, sizeof *t);
			t->text = strdup(text);
			t->head = (size_t)length;
			t->fixed = 1;
			t->offset_us = offset_us;
			continue;
		}
		if (!s || !e) {
			fprintf(stderr, "peer_server: %s line %zu: no @S@ or no @E@ placeholder\n", path, template_count + 1);
			exit(1);
		}
		char *a = s < e ? s : e, *b = s < e ? e : s;
		templates = realloc(templates, (template_count + 1) * sizeof *templates);
		struct template *t = &templates[template_count++];
		t->text = strdup(text);
		t->seq_first = s < e;
		t->fixed = 0;
		t->offset_us = offset_us;
		t->head = (size_t)(a - text);
		t->middle_at = t->text + (a - text) + 3;
		t->middle = (size_t)(b - a - 3);
		t->tail_at = t->text + (b - text) + 3;
		t->tail = (size_t)(length - (b - text) - 3);
	}
	free(line);
	fclose(file);
	if (!template_count) {
		fprintf(stderr, "peer_server: %s has no frames\n", path);
		exit(1);
	}
}

static void on_signal(int signal_number)
{
	(void)signal_number;
	atomic_store(&stopping, 1);
	if (context)
		lws_cancel_service(context);
}

int main(int argc, char **argv)
{
	const char *frames = NULL, *host = "127.0.0.1";
	int port = 0;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--frames"))
			frames = argv[i + 1];
		else if (!strcmp(argv[i], "--timeline"))
			frames = argv[i + 1], timeline = 1;
		else if (!strcmp(argv[i], "--rate"))
			rate = atof(argv[i + 1]);
		else if (!strcmp(argv[i], "--port"))
			port = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--host"))
			host = argv[i + 1];
		else {
			fprintf(stderr, "peer_server: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	if (!frames || rate <= 0) {
		fprintf(stderr, "usage: peer_server (--frames FILE --rate R | --timeline FILE) [--port P] [--host H]\n");
		return 2;
	}
	load_templates(frames);
	lws_set_log_level(LLL_ERR, NULL);
	struct lws_context_creation_info info;
	memset(&info, 0, sizeof info);
	info.port = port;
	info.iface = host;
	info.protocols = protocols;
	info.options = LWS_SERVER_OPTION_DISABLE_IPV6 | LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND;
	info.gid = -1;
	info.uid = -1;
	context = lws_create_context(&info);
	struct lws_vhost *vhost = context ? lws_get_vhost_by_name(context, "default") : NULL;
	int bound = vhost ? lws_get_vhost_listen_port(vhost) : 0;
	if (bound <= 0) {
		fprintf(stderr, "peer_server: cannot listen on %s:%d\n", host, port);
		return 1;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	printf("listening on %s:%d\n", host, bound);
	fflush(stdout);
	pthread_t producer;
	pthread_create(&producer, NULL, produce, NULL);
	while (!atomic_load(&stopping) && lws_service(context, 0) >= 0)
		;
	atomic_store(&stopping, 1);
	wake_producer();
	pthread_join(producer, NULL);
	lws_context_destroy(context);
	return 0;
}
