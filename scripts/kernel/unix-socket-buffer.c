/*
 * What hackbench's senders meet on this kernel: how many 100-byte writes a Unix stream socket takes before a
 * write would block, and how far its reader must drain it before a blocked writer is woken (unix_writable()).
 * The model's hackbench (WorkloadSpec.HACKBENCH_BUFFER_MESSAGES, HackbenchProgram) stands on these two numbers.
 * Build and run: scripts/socket-buffer-check.sh
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

static int sv[2];
static atomic_int written;

static void *blocked_writer(void *arg)
{
	char b[100] = {0};
	(void)arg;
	if (write(sv[1], b, sizeof(b)) == sizeof(b))
		atomic_store(&written, 1);
	return NULL;
}

int main(void)
{
	char b[100] = {0};
	int full = 0, reads = 0;
	pthread_t t;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return 1;
	fcntl(sv[1], F_SETFL, O_NONBLOCK);
	while (write(sv[1], b, sizeof(b)) == sizeof(b))
		full++;
	fcntl(sv[1], F_SETFL, 0);
	pthread_create(&t, NULL, blocked_writer, NULL);
	usleep(100000);
	while (!atomic_load(&written)) {
		if (read(sv[0], b, sizeof(b)) != sizeof(b))
			return 1;
		reads++;
		usleep(2000);
	}
	printf("buffer: %d messages of 100 bytes; a blocked writer is woken at %d in flight (after %d reads)\n",
	       full, full - reads, reads);
	return 0;
}
