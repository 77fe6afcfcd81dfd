/*
 * clockreads: how late a run on the thread's own CPU clock ends (the bandwidth data sets' edge-1x1000 reason).
 * latbench's clock=thread runs (burn_thread_clock()) spin 1 000 volatile increments between two
 * clock_gettime(CLOCK_THREAD_CPUTIME_ID) reads and stop at the first read past their target; this runs the same
 * loop N times for RUN_US of thread CPU each and prints the mean and largest overshoot, the reads per run and the
 * read period, and the overshoot's histogram in 500 ns bins.
 *
 * usage: gcc -O2 -o /tmp/clockreads src/test/c/clockreads.c && taskset -c 1 /tmp/clockreads RUN_US N
 */
#include <stdio.h>
#include <stdint.h>
#include <time.h>
#include <stdlib.h>
static int64_t now_ns(clockid_t c){struct timespec ts;clock_gettime(c,&ts);return (int64_t)ts.tv_sec*1000000000LL+ts.tv_nsec;}
int main(int argc,char**argv){
  long us=atol(argv[1]); int n=atoi(argv[2]);
  double sum=0; int64_t mx=0; long reads_total=0;
  int64_t hist[12]={0};
  for(int k=0;k<n;k++){
    volatile unsigned long x=0; long reads=0;
    int64_t t0=now_ns(CLOCK_THREAD_CPUTIME_ID), t;
    while((t=now_ns(CLOCK_THREAD_CPUTIME_ID))-t0 < us*1000){ reads++; for(int i=0;i<1000;i++) x++; }
    int64_t ov=t-t0-us*1000; sum+=ov; if(ov>mx)mx=ov; reads_total+=reads+1;
    int b=ov/500; if(b>11)b=11; hist[b]++;
  }
  printf("run %ld us x%d: mean overshoot %.0f ns, max %lld ns, reads per run %.1f, period %.0f ns\n",us,n,sum/n,(long long)mx,(double)reads_total/n,(double)n*us*1000/reads_total);
  for(int b=0;b<12;b++) printf("%d-%d ns: %lld\n",b*500,(b+1)*500,(long long)hist[b]);
}
