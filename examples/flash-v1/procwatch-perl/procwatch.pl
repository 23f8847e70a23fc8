#!/usr/bin/env perl
# procwatch: a Flash plugin (protocol v1) whose catalog comes from the host's process table.
#
# Written from flash-plugin-protocol-v1.txt and flash-manifest.md, with the Flash Rust SDK's
# documentation for the shape of host.process_table's answer (rows under "processes", each with
# pid, comm, cpu_percent, mem_percent). Perl 5 core modules only (JSON::PP, IO::Select, Encode).
#
# Style: one select(2) loop and callbacks. A host call registers a continuation under its id;
# the loop keeps serving requests while calls are pending, and times a call out after
# host_call_timeout_ms ("host call timed out").
use strict;
use warnings;
use utf8;
use B ();
use Encode ();
use IO::Select;
use JSON::PP ();
use POSIX ();
use Time::HiRes qw(time);

use constant {
    LINE_CAP => 10 * 1024 * 1024,
    SOURCE   => 'procwatch.processes',
    SEGMENT  => 'top_cpu',
};

my $json_out = JSON::PP->new->utf8->canonical;
my $json_in  = JSON::PP->new->allow_nonref(0);

my %config = (host_call_timeout_ms => 5000, refresh_seconds => 10, sample_window_ms => 150);
if (my $raw = $ENV{FLASH_PLUGIN_CONFIG}) {
    my $given = eval { JSON::PP->new->decode($raw) };
    if (ref $given eq 'HASH') {
        for my $key (keys %config) {
            my $v = $given->{$key};
            $config{$key} = int($v) if defined $v && !ref $v && $v =~ /^\d+$/;
        }
    }
}
$config{refresh_seconds} = 1 if $config{refresh_seconds} < 1;

my $initialized = 0;
my $next_call   = 0;
my %pending;         # host call id -> {done => sub(result), deadline => epoch seconds}
my $last_rows;       # the rows of the last publish, to skip identical ones

sub warnline { print STDERR "procwatch: $_[0]\n" }

# -- wire ------------------------------------------------------------------------------------
sub send_frame {
    my ($msg) = @_;
    my $line = $json_out->encode($msg);
    if (length($line) > LINE_CAP) {
        if (exists $msg->{result}) {
            $line = $json_out->encode(
                {id => $msg->{id}, result => {ok => JSON::PP::false, error => 'response exceeded outbound frame limit'}});
        } else {
            warnline('dropped an outbound notification over the line cap');
            return;
        }
    }
    $line .= "\n";
    while (length $line) {
        my $n = syswrite(STDOUT, $line);
        exit 0 unless defined $n;    # the host stopped reading
        substr($line, 0, $n) = '';
    }
}

sub reply  { send_frame({id => $_[0], result => $_[1]}) }
sub notify { send_frame({method => $_[0], params => $_[1]}) }
sub ok     { return {ok => JSON::PP::true, @_} }
sub error  { return {ok => JSON::PP::false, error => $_[0]} }
sub unhandled { return {ok => JSON::PP::false, unhandled => JSON::PP::true} }

sub log_line {
    my ($trace, $level, $message, %fields) = @_;
    my %params = (level => $level, message => $message, fields => {map { $_ => "$fields{$_}" } keys %fields});
    $params{trace} = $trace if defined $trace;
    notify('log', \%params);
}

# A JSON integer, as decoded: an IV, never a float (3.0), a string or a boolean.
sub is_json_int {
    my ($v) = @_;
    return 0 if !defined $v || ref $v;
    my $flags = B::svref_2object(\$v)->FLAGS;
    return ($flags & B::SVf_IOK) && !($flags & B::SVf_NOK) && !($flags & B::SVf_POK);
}
sub positive_id { my ($v) = @_; return is_json_int($v) && $v > 0 }

# -- host calls ------------------------------------------------------------------------------
sub call_host {
    my ($method, $params, $done) = @_;
    my $id = ++$next_call;
    $pending{$id} = {done => $done, deadline => time + $config{host_call_timeout_ms} / 1000};
    send_frame({id => $id, method => $method, params => $params});
}

sub expire_calls {
    my $now = time;
    for my $id (sort { $a <=> $b } keys %pending) {
        next if $pending{$id}{deadline} > $now;
        my $call = delete $pending{$id};
        $call->{done}->(error('host call timed out'));
    }
}

# -- the catalog -----------------------------------------------------------------------------
# Calls host.process_table; $done gets the number of rows published, or an error string.
sub refresh {
    my ($trace, $done) = @_;
    call_host('host.process_table', {sample_window_ms => $config{sample_window_ms}}, sub {
        my ($result) = @_;
        my $rows = ref $result eq 'HASH' ? $result->{processes} : undef;
        my @procs = grep {
            ref $_ eq 'HASH' && positive_id($_->{pid}) && defined $_->{comm} && !ref $_->{comm} && length $_->{comm}
        } (ref $rows eq 'ARRAY' ? @$rows : ());
        if (!@procs) {
            # The host always has processes (it is one), so an empty table means the call
            # failed: keep the last-good catalog rather than publish an empty one.
            my $why = ref $result eq 'HASH' && !$result->{ok} && defined $result->{error} ? 'host error' : 'no rows';
            log_line($trace, 'warn', 'process table unusable; catalog kept', outcome => $why);
            return $done->(ref $result eq 'HASH' && defined $result->{error} ? $result->{error} : 'process table had no rows');
        }
        publish_rows(\@procs);
        log_line($trace, 'debug', 'catalog refreshed', rows => scalar @procs);
        $done->(scalar @procs);
    });
}

sub pct { my ($v) = @_; return defined $v && !ref $v && $v =~ /^-?[\d.eE+-]+$/ ? $v + 0 : 0 }

sub publish_rows {
    my ($procs) = @_;
    my @sorted = sort { pct($b->{cpu_percent}) <=> pct($a->{cpu_percent}) || $a->{pid} <=> $b->{pid} } @$procs;
    my @rows = map {
        my $p = $_;
        my $title = substr($p->{comm}, 0, 200);
        {
            source   => SOURCE,
            title    => $title,
            metadata => {
                pid      => "$p->{pid}",
                subtitle => sprintf('pid %d · %.1f%% CPU · %.1f%% MEM', $p->{pid}, pct($p->{cpu_percent}), pct($p->{mem_percent})),
            },
            effect => {copy_text => "$p->{pid}"},
        }
    } @sorted[0 .. ($#sorted < 9999 ? $#sorted : 9999)];    # quota: 10,000 rows
    my $encoded = $json_out->encode(\@rows);
    if (!defined $last_rows || $encoded ne $last_rows) {
        notify('publish', {rows => \@rows});
        $last_rows = $encoded;
    }
    my $top = $sorted[0];
    notify('status', {segments => {SEGMENT() => sprintf('%s %.0f%%', substr($top->{comm}, 0, 40), pct($top->{cpu_percent}))}});
}

sub send_polls { notify('poll', {registrations => {refresh => {every => $config{refresh_seconds} + 0, priority => 'normal'}}}) }

# -- requests --------------------------------------------------------------------------------
sub on_request {
    my ($id, $method, $params, $trace) = @_;
    if ($method eq 'initialize') {
        return reply($id, error('initialize may only be called once')) if $initialized;
        my $v = $params->{protocol_version};
        if (!(is_json_int($v) && $v == 1)) {
            my $shown = is_json_int($v) ? $v : '?';    # not an integer version at all
            reply($id, {ok => JSON::PP::false, protocol_version => 1, error => "protocol version mismatch: host v$shown, plugin v1"});
            exit 0;
        }
        $initialized = 1;
        reply($id, ok(protocol_version => 1));
        send_polls();
        refresh(undef, sub { });
        return;
    }
    return reply($id, ok()) if $method eq 'ping';
    return perform($id, $params, $trace) if $method eq 'perform';
    reply($id, error("unknown method: $method"));
}

sub perform {
    my ($id, $p, $trace) = @_;
    my $started = time;
    my $kind = $p->{kind} // '';
    my $answer = sub {
        my ($result) = @_;
        my $outcome = $result->{ok} ? 'ok' : $result->{unhandled} ? 'unhandled' : 'error';
        log_line($trace, 'info', 'perform', kind => (ref $kind ? '?' : $kind), outcome => $outcome,
                 elapsed_ms => int((time - $started) * 1000));
        reply($id, $result);
    };
    if ($kind eq 'resolve') {
        my $row = $p->{row};
        my $pid = ref $row eq 'HASH' && $row->{source} && $row->{source} eq SOURCE && ref $row->{metadata} eq 'HASH'
            ? $row->{metadata}{pid} : undef;
        return $answer->(unhandled()) unless defined $pid && !ref $pid && $pid =~ /^[1-9]\d{0,9}$/;
        return signal($pid + 0, $trace, $answer);
    }
    return $answer->(unhandled()) if $kind eq 'action' || $kind eq 'navigate';
    return $answer->(error('unknown perform kind')) unless $kind eq 'command';
    return $answer->(unhandled()) unless ($p->{command} // '') eq 'proc';
    my $sub  = $p->{subcommand} // '';
    my @args = grep { defined && !ref } (ref $p->{args} eq 'ARRAY' ? @{$p->{args}} : ());
    if ($sub eq 'refresh') {
        return refresh($trace, sub {
            my ($n) = @_;
            $answer->($n =~ /^\d+$/ ? ok(message => "$n processes") : error('process list failed'));
        });
    }
    if ($sub eq 'kill') {
        return $answer->(error('usage: proc kill <pid>')) unless @args && $args[0] =~ /^[1-9]\d{0,9}$/ && $args[0] <= 2147483647;
        return signal($args[0] + 0, $trace, $answer);
    }
    if ($sub eq 'every') {
        return $answer->(error('usage: proc every <seconds>')) unless @args && $args[0] =~ /^\d+$/ && $args[0] >= 1 && $args[0] <= 86400;
        $config{refresh_seconds} = $args[0] + 0;
        send_polls();
        return $answer->(ok(message => 'refresh cadence set'));
    }
    $answer->(unhandled());
}

sub signal {
    my ($pid, $trace, $answer) = @_;
    call_host('host.signal', {pid => $pid}, sub {
        my ($result) = @_;
        if (ref $result eq 'HASH' && $result->{ok}) {
            refresh($trace, sub { });
            return $answer->(ok(message => 'SIGTERM sent'));
        }
        $answer->(error('signal failed'));
    });
}

# -- inbound frames --------------------------------------------------------------------------
sub on_line {
    my ($bytes) = @_;
    my $text = eval { Encode::decode('UTF-8', $bytes, Encode::FB_CROAK) };
    return unless defined $text;                       # not UTF-8: dropped
    my $msg = eval { $json_in->decode($text) };
    return unless ref $msg eq 'HASH';                  # not a JSON object: dropped
    my $method = $msg->{method};
    if (exists $msg->{id}) {
        return unless positive_id($msg->{id});         # ids are positive integers
        if (defined $method && !ref $method) {
            my $params = ref $msg->{params} eq 'HASH' ? $msg->{params} : {};
            my $trace  = defined $msg->{trace} && !ref $msg->{trace} ? $msg->{trace} : undef;
            return on_request($msg->{id}, $method, $params, $trace);
        }
        my $call = delete $pending{$msg->{id}};        # a response: unknown ids are dropped
        $call->{done}->($msg->{result}) if $call;
        return;
    }
    return unless defined $method && $method eq 'event' && ref $msg->{params} eq 'HASH';
    my $name = $msg->{params}{name} // '';
    refresh(undef, sub { }) if $name eq 'core:poll:refresh';
}

sub parent_alive {
    my $ppid = $ENV{FLASH_PLUGIN_PARENT_PID} // '';
    return 1 unless $ppid =~ /^\d+$/ && $ppid > 0;
    return kill(0, $ppid) || $! == POSIX::EPERM;
}

sub shutdown_now {
    for my $id (sort { $a <=> $b } keys %pending) {
        my $call = delete $pending{$id};
        eval { $call->{done}->(error('host closed stdin')) };
    }
    exit 0;
}

$SIG{PIPE} = 'IGNORE';
binmode STDIN;
binmode STDOUT;
my $select = IO::Select->new(\*STDIN);
my $buffer = '';
my $discarding = 0;    # inside a line over the cap: drop up to its newline
while (1) {
    my $wait = 1;
    for my $call (values %pending) {
        my $left = $call->{deadline} - time;
        $wait = $left if $left < $wait;
    }
    $wait = 0 if $wait < 0;
    if (!$select->can_read($wait)) {
        expire_calls();
        shutdown_now() unless parent_alive();
        next;
    }
    my $n = sysread(STDIN, $buffer, 1 << 16, length $buffer);
    next if !defined $n && $!{EINTR};
    shutdown_now() unless $n;                         # EOF: the shutdown signal
    while ((my $nl = index($buffer, "\n")) >= 0) {
        my $line = substr($buffer, 0, $nl);
        substr($buffer, 0, $nl + 1) = '';
        if ($discarding) { $discarding = 0; next }
        next if length($line) > LINE_CAP;
        on_line($line);
    }
    if (length($buffer) > LINE_CAP) { $buffer = ''; $discarding = 1 }
    expire_calls();
}
