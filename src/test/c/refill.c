/*
 * refill: what reading a working set costs after the thread moved to the other CPU, against reading it again where
 * it was just written (docs/model.md, seed 002, "What a migration costs on this guest"). Two patterns: a pointer
 * chase over the set's cache lines in random order (each load depends on the last, as walking a task's kernel
 * structures does) and a sequential read (streaming, what HardwareModel.cacheRefillNsPerKb's default is of the
 * order of). Each repetition writes the set on one CPU, reads it twice there, moves (sched_setaffinity) and reads it
 * once on the other; prints medians and the extra cost per KiB moved.
 *
 * usage: gcc -O2 -o /tmp/refill src/test/c/refill.c && /tmp/refill [REPS (200)]   (a quiet 2-CPU machine)
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <time.h>
#include <string.h>
static inline uint64_t now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1000000000ull+t.tv_nsec;}
static void pin(int c){cpu_set_t s;CPU_ZERO(&s);CPU_SET(c,&s);sched_setaffinity(0,sizeof s,&s);sched_yield();}
typedef struct line { struct line *next; long pad[7]; } line;
static line *build(size_t n){ line *a=aligned_alloc(64,n*sizeof(line)); size_t *p=malloc(n*sizeof(size_t));
  for(size_t i=0;i<n;i++)p[i]=i; for(size_t i=n-1;i>0;i--){size_t j=rand()%(i+1);size_t t=p[i];p[i]=p[j];p[j]=t;}
  for(size_t i=0;i<n;i++)a[p[i]].next=&a[p[(i+1)%n]]; free(p); return a;}
static line * volatile sink; static volatile long ssink;
static uint64_t chase(line *s,size_t n){uint64_t t=now(); line *x=s; for(size_t i=0;i<n;i++)x=x->next; sink=x; return now()-t;}
static uint64_t stream(line *a,size_t n){uint64_t t=now(); long s=0; for(size_t i=0;i<n;i++)s+=a[i].pad[0]; ssink=s; return now()-t;}
static int cmp(const void*a,const void*b){uint64_t x=*(uint64_t*)a,y=*(uint64_t*)b;return x<y?-1:x>y;}
int main(int argc,char**argv){ int reps=argc>1?atoi(argv[1]):200; size_t kbs[]={16,64,256,1024};
  printf("KiB  chase_warm_ns chase_moved_ns  ns_per_KiB_moved(chase)  stream_warm stream_moved ns_per_KiB_moved(stream)\n");
  for(int k=0;k<4;k++){ size_t n=kbs[k]*1024/64; line *a=build(n); uint64_t *w=malloc(reps*8),*m=malloc(reps*8),*sw=malloc(reps*8),*sm=malloc(reps*8);
    for(int r=0;r<reps;r++){ int from=r&1, to=from^1;
      pin(from); for(size_t i=0;i<n;i++)a[i].pad[1]=r; chase(a,n); w[r]=chase(a,n); pin(to); m[r]=chase(a,n);
      pin(from); for(size_t i=0;i<n;i++)a[i].pad[1]=r; stream(a,n); sw[r]=stream(a,n); pin(to); sm[r]=stream(a,n); }
    qsort(w,reps,8,cmp);qsort(m,reps,8,cmp);qsort(sw,reps,8,cmp);qsort(sm,reps,8,cmp);
    printf("%5zu %10lu %10lu %10.1f   %10lu %10lu %10.1f\n",kbs[k],w[reps/2],m[reps/2],((double)m[reps/2]-w[reps/2])/kbs[k],sw[reps/2],sm[reps/2],((double)sm[reps/2]-sw[reps/2])/kbs[k]);
    free(a);}
  return 0;}
