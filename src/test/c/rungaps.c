/*
 * rungaps: what interrupts take from a periodic thread's runs against what they take from a busy loop, on one CPU,
 * the two alternating every 500 ms so that the host's load falls on both alike (docs/latency-validation.md, "Work runs
 * on a vCPU that idles"). Each computes as latbench's work runs do (CLOCK_MONOTONIC steps under 2 us are work); every
 * longer step is a gap, binned 2-50 us (interrupts and the host's exits), 50-200 us and over 200 us (the host running
 * something else, or another task). Prints per mode the gaps' share of run time, their rate per second of run and
 * that rate by time since the run began (100 us bins to 1 ms, then 1-2, 2-5, 5-10, 10-20 and 20-50 ms).
 * usage: rungaps CPU SECONDS RUN_US SLEEP_US [json]   (gcc -O2 -o rungaps rungaps.c; stop everything else meanwhile)
 * With "json" it prints one JSON object (scripts/measure-latency.py's machine block, "runGaps"): per mode the run
 * time, the gaps' count and total time in each class, and the 2-50 us gaps' count and time by time since the run
 * began, and the 2-200 us gaps' time by time since the mode's 500 ms phase began (how long after its last halt a
 * vCPU still loses more).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static int64_t now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1000000000LL+t.tv_nsec;}
#define NB 15
#define NP 6
/* a mode's phase (500 ms) in bins by time since it began: how long a busy loop still loses more after the periodic phase */
static const int64_t P[NP]={10000000,20000000,50000000,100000000,200000000,1000000000};
static int64_t phase_start;
static int pbin(int64_t t){int b=0;while(b<NP-1&&t>=P[b])b++;return b;}
typedef struct { double run_ns, gap_ns[3]; long gaps[3]; long runs; double early_gap_ns; long bin[NB]; double binspan[NB], bin_ns[NB]; double ph_gap_ns[NP], ph_span[NP]; } acc;
static const int64_t B[NB]={100000,200000,300000,400000,500000,600000,700000,800000,900000,1000000,2000000,5000000,10000000,20000000,50000000};
// classes: 2-50us, 50-200us, >200us
static void add(acc*a,int64_t d,int early,int64_t at){int b=0;while(b<NB-1&&at>=B[b])b++; if(d<50000){a->bin[b]++;a->bin_ns[b]+=d;}int k=d<50000?0:d<200000?1:2;a->gap_ns[k]+=d;a->gaps[k]++; if(early&&k==0)a->early_gap_ns+=d;}
// burn `work_ns` of steps <2us; record gaps
static void burn(acc*a,int64_t work_ns){int64_t left=work_ns,prev=now(),start=prev;while(left>0){int64_t n=now(),d=n-prev;if(d<2000)left-=d;else{add(a,d,(prev-start)<100000,prev-start);if(d<200000)a->ph_gap_ns[pbin(prev-phase_start)]+=d;}prev=n;}a->ph_span[pbin(start-phase_start)]+=now()-start;int64_t len=now()-start; for(int b=0;b<NB;b++){int64_t lo=b?B[b-1]:0; if(len>lo) a->binspan[b]+= (len<B[b]?len:B[b])-lo;} a->run_ns+=len;a->runs++;}
int main(int argc,char**argv){
  int cpu=atoi(argv[1]); double secs=atof(argv[2]); long run_us=atol(argv[3]), sleep_us=atol(argv[4]);
  cpu_set_t s;CPU_ZERO(&s);CPU_SET(cpu,&s);sched_setaffinity(0,sizeof s,&s);
  acc busy={0},per={0}; int64_t end=now()+(int64_t)(secs*1e9);
  while(now()<end){
    phase_start=now(); int64_t t=phase_start+500000000LL; while(now()<t) burn(&busy,1000000);
    phase_start=now(); t=phase_start+500000000LL; while(now()<t){ burn(&per,run_us*1000); struct timespec ts={0,sleep_us*1000}; clock_nanosleep(CLOCK_MONOTONIC,0,&ts,NULL);} }
  acc*m[2]={&busy,&per}; const char*nm[2]={"busy","periodic"};
  if(argc>5){printf("{\"cpu\": %d, \"runUs\": %ld, \"sleepUs\": %ld",cpu,run_us,sleep_us);
    for(int i=0;i<2;i++){acc*a=m[i];printf(", \"%s\": {\"runs\": %ld, \"runMs\": %.3f, \"gaps\": [",nm[i],a->runs,a->run_ns/1e6);
      for(int k=0;k<3;k++)printf("%s{\"upToUs\": %d, \"count\": %ld, \"ms\": %.4f}",k?", ":"",k==0?50:k==1?200:-1,a->gaps[k],a->gap_ns[k]/1e6);
      printf("], \"byTimeInRun\": [");
      for(int b=0,f=1;b<NB;b++) if(a->binspan[b]>0){printf("%s{\"upToUs\": %lld, \"runMs\": %.3f, \"gapsUnder50\": %ld, \"gapMs\": %.4f}",f?"":", ",(long long)B[b]/1000,a->binspan[b]/1e6,a->bin[b],a->bin_ns[b]/1e6);f=0;}
      printf("], \"byTimeInPhase\": [");
      for(int b=0,f=1;b<NP;b++) if(a->ph_span[b]>0){printf("%s{\"upToMs\": %lld, \"runMs\": %.3f, \"gapMs\": %.4f}",f?"":", ",(long long)P[b]/1000000,a->ph_span[b]/1e6,a->ph_gap_ns[b]/1e6);f=0;}
      printf("]}");}
    printf("}\n");return 0;}
  for(int i=0;i<2;i++){acc*a=m[i];printf("%-9s runs %ld run_ms %.1f gaps<50us %.3f%% (%ld, %.1f/s of run) 50-200us %.3f%% (%ld) >200us %.3f%% (%ld) early(first 100us) %.3f%%\n  rate/s by time in run:",nm[i],a->runs,a->run_ns/1e6,100*a->gap_ns[0]/a->run_ns,a->gaps[0],a->gaps[0]/(a->run_ns/1e9),100*a->gap_ns[1]/a->run_ns,a->gaps[1],100*a->gap_ns[2]/a->run_ns,a->gaps[2],100*a->early_gap_ns/a->run_ns); for(int b=0;b<NB;b++) if(a->binspan[b]>0) printf(" %.0f", a->bin[b]/(a->binspan[b]/1e9)); printf("\n");}
}
