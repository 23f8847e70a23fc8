#!/usr/bin/env ruby
# frozen_string_literal: true

# Quick Notes: a RIM plugin speaking RIM plugin protocol v1, Ruby standard library only.
#
# The host runs this file directly (plugin directory as working directory) and talks to it
# over stdin/stdout in frames: a 4-byte little-endian length, then that many bytes of UTF-8
# JSON holding one JSON-RPC 2.0 message. stdout carries frames and nothing else; every
# diagnostic goes to stderr (and $stdout is pointed at stderr so a stray `puts` cannot
# corrupt the stream).
#
# Threads: the main thread only reads frames and dispatches them, so heartbeats are answered
# while a command runs. Every command runs on its own thread; a command that calls the host
# waits on its own queue for the answer, matched by id.

require 'json'
require 'fileutils'
require 'securerandom'
require 'digest'
require 'time'

PROTOCOL_OUT = $stdout
PROTOCOL_OUT.binmode
PROTOCOL_OUT.sync = true
$stdout = $stderr
$stdin.binmode

PLUGIN_DIR = File.expand_path(__dir__)
MANIFEST = JSON.parse(File.read(File.join(PLUGIN_DIR, 'rim-plugin.json')))
PLUGIN_ID = MANIFEST.fetch('plugin_id')
PLUGIN_VERSION = MANIFEST.fetch('version', '0')
PROTOCOL_VERSION = 1
MAX_PAYLOAD = 4 * 1024 * 1024 # §3: 4,194,304 bytes, both directions

# §8 error codes.
METHOD_NOT_FOUND = -32_601
INVALID_PARAMS = -32_602
CAPABILITY_DENIED = -32_000
RATE_LIMITED = -32_001
PLUGIN_ERROR = -32_002
# This plugin's own code (outside the reserved range, as §8 asks): a second rim.handshake.
ALREADY_HANDSHAKEN = 1409

HOST_CALL_TIMEOUT = 25 # seconds; the host answers every request (§5), this is only a backstop
SYNC_SETTLE_SECONDS = 0.7

def diag(text)
  $stderr.puts("quicknotes: #{text}")
rescue IOError, SystemCallError
  nil
end

# A command failure the user should read: answered with the code, message and data.
class CommandError < StandardError
  attr_reader :code, :data

  def initialize(code, message, data = nil)
    super(message)
    @code = code
    @data = data
  end
end

def invalid_params(message, data = nil) = CommandError.new(INVALID_PARAMS, message, data)
def plugin_error(message, data = nil) = CommandError.new(PLUGIN_ERROR, message, data)

# Frames in and out (§3).
class Wire
  class Oversized < StandardError; end

  def initialize(input, output)
    @in = input
    @out = output
    @lock = Mutex.new
    @closed = false
  end

  # The next payload as a binary string, or nil at end of input (also inside a frame).
  # Raises Oversized for a header announcing more than 4 MiB: the connection is over.
  def read_frame
    header = read_exact(4)
    return nil unless header

    length = header.unpack1('L<')
    raise Oversized, "frame header announces #{length} bytes (limit #{MAX_PAYLOAD})" if length > MAX_PAYLOAD
    return ''.b if length.zero?

    read_exact(length)
  end

  # Writes one message; false when it cannot (closed, too large, unencodable).
  def send_message(message)
    body = JSON.generate(message).b
    if body.bytesize > MAX_PAYLOAD
      diag("not sending a #{body.bytesize}-byte frame (limit #{MAX_PAYLOAD})")
      return false
    end
    @lock.synchronize do
      return false if @closed

      @out.write([body.bytesize].pack('L<'), body)
    end
    true
  rescue JSON::GeneratorError, Encoding::UndefinedConversionError => e
    diag("cannot encode a frame: #{e.message}")
    false
  rescue IOError, SystemCallError => e
    diag("stdout is gone (#{e.class}); nothing more will be sent")
    @lock.synchronize { @closed = true } unless @lock.owned?
    false
  end

  # After this nothing is written (§15: nothing after rim.shutdown). Waits for a write in
  # progress, so no half frame is left behind.
  def close
    @lock.synchronize { @closed = true }
  end

  private

  # IO#read(n) on a pipe loops until it has n bytes or reaches end of file.
  def read_exact(count)
    data = @in.read(count)
    return nil if data.nil? || data.bytesize < count

    data
  end
end

# Requests this plugin sends to the host, answered by id in any order (§4, §5).
class HostCalls
  def initialize(wire)
    @wire = wire
    @lock = Mutex.new
    @pending = {}
    @next = 0
  end

  # One request sent to the host and not yet answered.
  Pending = Struct.new(:id, :method, :queue, :timer)

  # Returns [:result, value] or [:error, {"code" => ..., "message" => ...}].
  def call(method, params)
    wait(start(method, params))
  end

  # Sends the request and returns at once, so several calls can be in flight; collect each
  # answer with #wait, in any order (the host may answer them in any order, §4).
  def start(method, params)
    queue = Queue.new
    id = @lock.synchronize do
      @next += 1
      "qn-#{@next}".tap { |key| @pending[key] = queue }
    end
    pending = Pending.new(id, method, queue, nil)
    message = { 'jsonrpc' => '2.0', 'id' => id, 'method' => method }
    message['params'] = params unless params.nil?
    unless @wire.send_message(message)
      forget(id)
      queue.push(:unsent)
      return pending
    end
    pending.timer = Thread.new do
      sleep HOST_CALL_TIMEOUT
      queue.push(:timeout)
    end
    pending
  end

  # The answer to a call made with #start: [:result, value] or [:error, error object].
  def wait(pending)
    answer = pending.queue.pop
    pending.timer&.kill
    case answer
    when :unsent
      return [:error, { 'code' => nil, 'message' => 'could not send the request to the host' }]
    when :timeout
      forget(pending.id)
      return [:error, { 'code' => nil, 'message' => "the host did not answer #{pending.method}" }]
    end
    return [:result, answer['result']] if answer.key?('result')

    error = answer['error'].is_a?(Hash) ? answer['error'] : { 'message' => 'malformed error' }
    [:error, error]
  end

  # A response from the host: handed to the caller waiting on that id; unknown ids dropped.
  def deliver(message)
    queue = @lock.synchronize { @pending.delete(message['id']) }
    if queue
      queue.push(message)
    else
      diag("dropping a response to an id this plugin is not waiting for: #{message['id'].inspect}")
    end
  end

  private

  def forget(id)
    @lock.synchronize { @pending.delete(id) }
  end
end

# The notes, kept per person under their principalId (a map key, so rim.principals.remapped
# can rewrite it; the id is never parsed, §11). One JSON file, replaced atomically, locked
# across processes.
class NoteStore
  def initialize(dir)
    @dir = dir
    @path = File.join(dir, 'notes.json')
    @lock = Mutex.new
  end

  attr_reader :dir

  # Yields the whole document for reading or changing; writes it back when changed.
  def transaction(write: false)
    @lock.synchronize do
      FileUtils.mkdir_p(@dir)
      File.open(File.join(@dir, '.lock'), File::RDWR | File::CREAT, 0o600) do |lock|
        lock.flock(write ? File::LOCK_EX : File::LOCK_SH)
        doc = load
        result = yield doc
        save(doc) if write
        result
      end
    end
  rescue SystemCallError, IOError => e
    raise plugin_error("cannot use the notes folder #{@dir}: #{e.message}")
  end

  def user(doc, principal_id)
    doc['users'][principal_id] ||= { 'slot' => SecureRandom.hex(6), 'notes' => [] }
  end

  # Idempotent: every stored `from` becomes its `to`; ids that are not a `from` stay.
  def remap(mappings)
    return 0 unless File.exist?(@path)

    transaction(write: true) do |doc|
      users = doc['users']
      mappings.count do |from, to|
        next false unless users.key?(from)

        moved = users.delete(from)
        if users.key?(to)
          known = users[to]['notes'].map { |n| n['id'] }
          users[to]['notes'].concat(moved['notes'].reject { |n| known.include?(n['id']) })
        else
          users[to] = moved
        end
        true
      end
    end
  end

  private

  def load
    doc = JSON.parse(File.read(@path))
    doc.is_a?(Hash) && doc['users'].is_a?(Hash) ? doc : fresh
  rescue Errno::ENOENT
    fresh
  rescue JSON::ParserError
    backup = "#{@path}.corrupt-#{Time.now.to_i}"
    File.rename(@path, backup)
    diag("notes file was not valid JSON; kept it as #{backup}")
    fresh
  end

  def fresh = { 'format' => 1, 'users' => {} }

  def save(doc)
    tmp = "#{@path}.#{Process.pid}.tmp"
    File.open(tmp, 'w', 0o600) do |f|
      f.write(JSON.pretty_generate(doc))
      f.fsync
    end
    File.rename(tmp, @path)
  end
end

# The commands the manifest declares. Each gets validated args and the invoking principal.
class Commands
  PANEL_ID = 'quicknotes'
  PINNED_PANEL_ID = 'quicknotes.pinned'
  MAX_LIMIT = 200

  def initialize(store, host, log)
    @store = store
    @host = host
    @log = log
  end

  def add_note(args, who)
    text = args['text'].strip
    raise invalid_params('text is longer than 10000 characters') if text.length > 10_000

    note = {
      'id' => SecureRandom.uuid,
      'text' => text,
      'tags' => parse_tags(args['tags']),
      'pinned' => args['pinned'] == true,
      'createdAt' => Time.now.utc.iso8601
    }
    count = @store.transaction(write: true) do |doc|
      notes = @store.user(doc, who['principalId'])['notes']
      notes << note
      notes.size
    end
    @log.call('info', "note added (#{text.length} characters, #{note['tags'].size} tags); #{count} notes now")
    { 'payload' => note, 'message' => "Saved. You have #{count} note#{'s' unless count == 1}." }
  end

  def list_notes(args, who)
    limit = limit_of(args)
    tag = args['tag']&.strip&.downcase
    notes = sorted_notes(who)
    notes = notes.select { |n| n['tags'].include?(tag) } if tag && !tag.empty?
    shown = notes.first(limit)
    { 'payload' => shown, 'message' => "#{shown.size} of #{notes.size} note#{'s' unless notes.size == 1}" }
  end

  def search_notes(args, who)
    query = args['query'].strip.downcase
    limit = limit_of(args)
    hits = sorted_notes(who).select do |n|
      n['text'].downcase.include?(query) || n['tags'].any? { |t| t.include?(query) }
    end
    { 'payload' => hits.first(limit), 'message' => "#{hits.size} match#{'es' unless hits.size == 1}" }
  end

  # Takes about SYNC_SETTLE_SECONDS on purpose: after writing, it waits for the file to
  # settle and reads it back, so a sync client watching the folder never ships half a file
  # and the user learns if something else rewrote it meanwhile.
  def sync_notes(args, who)
    started = monotonic
    folder = args['folder']
    raise invalid_params('folder must be an absolute path') if folder && !folder.start_with?('/')

    folder ||= File.join(@store.dir, 'exports')
    notes, slot = @store.transaction(write: true) do |doc|
      user = @store.user(doc, who['principalId'])
      [user['notes'].dup, user['slot']]
    end
    markdown = to_markdown(notes, who)
    path = File.join(folder, "quicknotes-#{slot}.md")
    begin
      FileUtils.mkdir_p(folder)
      File.open("#{path}.tmp", 'w', 0o600) do |f|
        f.write(markdown)
        f.fsync
      end
      File.rename("#{path}.tmp", path)
    rescue SystemCallError, IOError => e
      raise plugin_error("sync failed: cannot write #{path}: #{e.message}")
    end
    @log.call('debug', "sync: wrote #{notes.size} notes, waiting for the file to settle")
    remaining = SYNC_SETTLE_SECONDS - (monotonic - started)
    sleep remaining if remaining.positive?
    digest = Digest::SHA256.hexdigest(markdown)
    actual = begin
      Digest::SHA256.file(path).hexdigest
    rescue SystemCallError => e
      raise plugin_error("sync failed: #{path} vanished while settling: #{e.message}")
    end
    raise plugin_error("sync failed: #{path} was changed by another program while settling") if actual != digest

    @log.call('info', "sync: #{notes.size} notes verified in #{path}")
    { 'payload' => { 'path' => path, 'notes' => notes.size, 'sha256' => digest },
      'message' => "Synced #{notes.size} note#{'s' unless notes.size == 1} to #{path}" }
  end

  # Calls the host (rim.ui.update_panel, guarded by ui.panel, §12). Whatever the host answers,
  # the user gets the notes; the message says whether the panel shows them.
  def show_notes_panel(args, who)
    listing = list_notes({ 'tag' => args['tag'], 'limit' => 20 }, who)
    notes = listing['payload']
    panel = panel_params(PANEL_ID, 'Quick Notes', notes)
    kind, answer = @host.call('rim.ui.update_panel', panel)
    shown = kind == :result
    message =
      if shown
        "Showing #{notes.size} note#{'s' unless notes.size == 1} in the Quick Notes panel"
      else
        @log.call('warn', "panel update refused: #{answer['code'].inspect} #{answer['message']}")
        "Could not update the panel: #{panel_problem(answer)}"
      end
    { 'payload' => { 'shown' => shown, 'notes' => notes }, 'message' => message }
  end

  # Refreshes both panels at once: the newest notes and the pinned ones. Both
  # rim.ui.update_panel requests go out before either answer is awaited (the host answers in
  # any order, matched by id), and the payload lists what the host said to each, in the order
  # they were sent: its result, or its error object.
  def refresh_panels(_args, who)
    notes = sorted_notes(who)
    panels = [
      panel_params(PANEL_ID, 'Quick Notes', notes.first(20)),
      panel_params(PINNED_PANEL_ID, 'Quick Notes: Pinned', notes.select { |n| n['pinned'] }.first(20))
    ]
    calls = panels.map { |panel| @host.start('rim.ui.update_panel', panel) }
    answers = calls.map { |call| @host.wait(call) }
    refused = answers.count { |kind, _| kind == :error }
    answers.each_with_index do |(kind, answer), i|
      next if kind == :result

      @log.call('warn', "panel #{panels[i]['panelId']} update refused: #{answer['code'].inspect} #{answer['message']}")
    end
    message =
      if refused.zero?
        'Refreshed both Quick Notes panels'
      else
        first_error = answers.find { |kind, _| kind == :error }[1]
        "Refreshed #{panels.size - refused} of #{panels.size} panels: #{panel_problem(first_error)}"
      end
    { 'payload' => answers.map { |_, answer| answer }, 'message' => message }
  end

  def delete_notes(args, who)
    tag = args['tag']&.strip&.downcase
    tag = nil if tag&.empty?
    deleted = @store.transaction(write: true) do |doc|
      notes = @store.user(doc, who['principalId'])['notes']
      before = notes.size
      tag ? notes.reject! { |n| n['tags'].include?(tag) } : notes.clear
      before - notes.size
    end
    @log.call('warn', "deleted #{deleted} notes#{" tagged #{tag}" if tag}")
    { 'payload' => { 'deleted' => deleted }, 'message' => "Deleted #{deleted} note#{'s' unless deleted == 1}" }
  end

  private

  # rim.ui.update_panel's params; §17 says the shape is not frozen.
  def panel_params(panel_id, title, notes)
    { 'panelId' => panel_id, 'title' => title,
      'items' => notes.map { |n| { 'id' => n['id'], 'text' => n['text'], 'tags' => n['tags'], 'pinned' => n['pinned'] } } }
  end

  def panel_problem(error)
    case error['code']
    when CAPABILITY_DENIED
      'Quick Notes lacks the ui.panel permission. Approve it, then disable and re-enable the plugin.'
    when RATE_LIMITED then 'too many panel updates this minute; try again shortly.'
    when METHOD_NOT_FOUND then 'this version of RIM cannot show plugin panels.'
    else error['message'].to_s
    end
  end

  def parse_tags(raw)
    return [] if raw.nil?

    raw.split(',').map { |t| t.strip.downcase }.reject(&:empty?).uniq.first(20)
  end

  def limit_of(args)
    limit = args.fetch('limit', 20) || 20
    raise invalid_params("limit must be between 1 and #{MAX_LIMIT}") unless limit.between?(1, MAX_LIMIT)

    limit
  end

  def sorted_notes(who)
    notes = @store.transaction { |doc| (doc['users'][who['principalId']] || { 'notes' => [] })['notes'] }
    notes.sort_by { |n| [n['pinned'] ? 0 : 1, n['createdAt'].to_s] }
         .chunk_while { |a, b| a['pinned'] == b['pinned'] }
         .flat_map(&:reverse)
  end

  def to_markdown(notes, who)
    lines = ["# Quick Notes of #{who['displayName'] || 'you'}", '',
             "_#{notes.size} notes, exported #{Time.now.utc.iso8601}_", '']
    notes.each do |n|
      tags = n['tags'].empty? ? '' : " (#{n['tags'].map { |t| "##{t}" }.join(' ')})"
      lines << "- #{n['pinned'] ? '**[pinned]** ' : ''}#{n['text'].gsub("\n", ' ')}#{tags} — #{n['createdAt']}"
    end
    "#{lines.join("\n")}\n"
  end

  def monotonic = Process.clock_gettime(Process::CLOCK_MONOTONIC)
end

# The connection: handshake, dispatch, principals, shutdown.
class Plugin
  def initialize
    @wire = Wire.new($stdin, PROTOCOL_OUT)
    @host = HostCalls.new(@wire)
    @store = NoteStore.new(data_dir)
    @commands = Commands.new(@store, @host, method(:log))
    @declared = MANIFEST.fetch('commands', []).to_h { |c| [c['id'], c] }
    @handshaken = false
    @granted = []
    @principal = nil
  end

  def run
    log('info', "Quick Notes #{PLUGIN_VERSION} starting (Ruby #{RUBY_VERSION})")
    loop do
      payload = @wire.read_frame
      finish(0, 'stdin closed') if payload.nil?
      receive(payload)
    end
  rescue Wire::Oversized => e
    finish(1, e.message)
  end

  private

  def data_dir
    return ENV['QUICKNOTES_DATA_DIR'] if ENV['QUICKNOTES_DATA_DIR'].to_s != ''

    base = ENV['XDG_DATA_HOME'].to_s
    base = File.join(Dir.home, '.local', 'share') if base.empty? || !base.start_with?('/')
    File.join(base, 'rim-quicknotes')
  rescue ArgumentError # no home directory
    File.join(PLUGIN_DIR, 'data')
  end

  def finish(code, why)
    diag("exiting: #{why}")
    @wire.close
    $stderr.flush
    exit!(code)
  end

  # §3/§4: anything that is not a JSON object shaped like a JSON-RPC message is dropped,
  # unanswered.
  def receive(payload)
    text = payload.force_encoding(Encoding::UTF_8)
    return drop('payload is not valid UTF-8') unless text.valid_encoding?

    message = begin
      parse_json(text)
    rescue JSON::ParserError => e
      return drop("payload is not JSON (#{e.message[0, 80]})")
    end
    return drop("payload is a JSON #{message.class}, not an object") unless message.is_a?(Hash)
    return drop('jsonrpc is not "2.0"') unless message['jsonrpc'] == '2.0'

    id = message['id']
    if message.key?('method')
      return drop('method is not a string') unless message['method'].is_a?(String)
      return notification(message) if id.nil?
      return drop("id #{id.inspect} is neither an integer nor a string") unless id.is_a?(Integer) || id.is_a?(String)

      request(message)
    elsif !id.nil? && (message.key?('result') || message.key?('error'))
      @host.deliver(message)
    else
      drop('neither a request, a notification nor a response')
    end
  rescue StandardError => e
    diag("error while handling a frame: #{e.class}: #{e.message}")
    answer_error(message, PLUGIN_ERROR, 'internal error in Quick Notes') if message.is_a?(Hash) && message['id'] && message['method']
  end

  # JSON's grammar allows an escaped lone surrogate ("\ud800") although it is no character;
  # Ruby's parser rejects a lone high one and turns a lone low one into invalid UTF-8. Such a
  # frame is still valid JSON and may be a request to answer, so each lone one becomes U+FFFD
  # before parsing. Escaped pairs and other escapes (including "\\") are kept.
  ESCAPES = /\\u[dD][89abAB]\h{2}\\u[dD][c-fC-F]\h{2}|(\\u[dD][89a-fA-F]\h{2})|\\./m

  def parse_json(text)
    text = text.gsub(ESCAPES) { Regexp.last_match(1) ? '\\ufffd' : Regexp.last_match(0) } if text.match?(/\\u[dD][89a-fA-F]/)
    JSON.parse(text)
  end

  def drop(why)
    diag("dropped a frame: #{why}")
    nil
  end

  def request(message)
    method = message['method']
    return handshake(message) if method == 'rim.handshake'
    return finish(0, 'rim.shutdown') if method == 'rim.shutdown'
    # §6: until the handshake is answered the plugin sends nothing but rim.log.
    return drop("#{method} before the handshake") unless @handshaken

    case method
    when 'rim.heartbeat' then answer(message, { 'pong' => true })
    when 'rim.command.execute' then execute(message)
    else answer_error(message, METHOD_NOT_FOUND, "method not found: #{method}")
    end
  end

  def notification(message)
    params = message['params'].is_a?(Hash) ? message['params'] : {}
    case message['method']
    when 'rim.shutdown' then finish(0, 'rim.shutdown')
    when 'rim.principal.changed' then principal_changed(params)
    when 'rim.principals.remapped' then principals_remapped(params)
    else diag("ignoring notification #{message['method']}")
    end
  end

  # §7. Refusing ends this process right after the answer.
  def handshake(message)
    return answer_error(message, ALREADY_HANDSHAKEN, 'the handshake happens once per connection') if @handshaken

    params = message['params'].is_a?(Hash) ? message['params'] : {}
    offered = params['supportedVersions']
    offered = [params['protocolVersion']] unless offered.is_a?(Array)
    refusal =
      if params['pluginId'] != PLUGIN_ID
        "this plugin is #{PLUGIN_ID}, not #{params['pluginId'].inspect}"
      elsif offered.none? { |v| v.is_a?(Integer) && v == PROTOCOL_VERSION }
        "host speaks protocol #{offered.to_json}, this plugin needs #{PROTOCOL_VERSION}"
      end
    if refusal
      answer(message, { 'accepted' => false, 'protocolVersion' => PROTOCOL_VERSION,
                        'pluginId' => PLUGIN_ID, 'error' => refusal })
      finish(0, "refused the handshake: #{refusal}")
    end
    granted = params['grantedCapabilities']
    @granted = granted.is_a?(Array) ? granted.grep(String) : []
    @principal = principal_of(params['principal'])
    # Logged before the answer (allowed, §14): after it the plugin only speaks when spoken to,
    # so nothing of its own can cross a rim.shutdown that follows the handshake at once.
    log('debug', "host #{params['hostVersion']}; ui.panel #{@granted.include?('ui.panel') ? 'granted' : 'not granted'}")
    @handshaken = true
    answer(message, { 'accepted' => true, 'protocolVersion' => PROTOCOL_VERSION, 'pluginId' => PLUGIN_ID })
  end

  # §9/§10. Checked here on the reading thread; the work itself runs on its own thread.
  def execute(message)
    params = message['params']
    return answer_error(message, INVALID_PARAMS, 'params must be an object') unless params.is_a?(Hash)

    command_id = params['commandId']
    spec = command_id.is_a?(String) ? @declared[command_id] : nil
    return answer_error(message, INVALID_PARAMS, "unknown command: #{command_id.inspect}") unless spec

    if spec['dangerous'] == true && !(params['confirmed'] == true && params['initiator'] != 'agent')
      return answer_error(message, PLUGIN_ERROR, 'this command needs confirmation')
    end

    args = params['args'].nil? ? {} : params['args']
    return answer_error(message, INVALID_PARAMS, 'args must be an object') unless args.is_a?(Hash)

    problems = check_args(spec, args)
    return answer_error(message, INVALID_PARAMS, problems.join('; '), { 'problems' => problems }) unless problems.empty?

    who = principal_of(params['invoker']) || @principal
    return answer_error(message, PLUGIN_ERROR, 'nobody is signed in to RIM') unless who

    Thread.new { run_command(message, command_id, args, who) }
  end

  def run_command(message, command_id, args, who)
    answer(message, @commands.public_send(command_id, args, who))
  rescue CommandError => e
    answer_error(message, e.code, e.message, e.data)
  rescue StandardError => e
    diag("#{command_id} crashed: #{e.class}: #{e.message}\n  #{e.backtrace&.first(5)&.join("\n  ")}")
    answer_error(message, PLUGIN_ERROR, "#{command_id} failed unexpectedly: #{e.message}")
  end

  TYPE_CHECKS = {
    'string' => ->(v) { v.is_a?(String) },
    'integer' => ->(v) { v.is_a?(Integer) },
    'number' => ->(v) { v.is_a?(Numeric) },
    'boolean' => ->(v) { [true, false].include?(v) }
  }.freeze

  # Declared arguments only; undeclared ones are ignored like any unknown field (§4).
  def check_args(spec, args)
    (spec['arguments'] || []).filter_map do |arg|
      name = arg['name']
      value = args[name]
      if value.nil?
        "missing required argument #{name}" if arg['required'] == true
      elsif !TYPE_CHECKS.fetch(arg['type'], ->(_) { true }).call(value)
        "argument #{name} must be a#{'n' if arg['type'] == 'integer'} #{arg['type']}"
      elsif arg['required'] == true && value.is_a?(String) && value.strip.empty?
        "argument #{name} must not be empty"
      end
    end
  end

  def principal_of(value)
    return nil unless value.is_a?(Hash) && value['principalId'].is_a?(String) && !value['principalId'].empty?

    { 'principalId' => value['principalId'], 'displayName' => value['displayName'].is_a?(String) ? value['displayName'] : nil }
  end

  # §11: the new signed-in user, or nobody (null) after sign-out.
  def principal_changed(params)
    @principal = principal_of(params['principal'])
    diag(@principal ? 'signed-in user changed' : 'signed out')
  end

  # §11: the whole mapping, possibly again; applying it twice changes nothing.
  def principals_remapped(params)
    mappings = params['mappings']
    return unless mappings.is_a?(Array)

    pairs = mappings.filter_map do |m|
      next unless m.is_a?(Hash) && m['from'].is_a?(String) && m['to'].is_a?(String) && m['from'] != m['to']

      [m['from'], m['to']]
    end
    mapping = pairs.to_h
    if @principal && mapping.key?(@principal['principalId'])
      @principal = @principal.merge('principalId' => mapping[@principal['principalId']])
    end
    Thread.new do
      moved = @store.remap(pairs)
      log('info', "moved the notes of #{moved} person(s) to their new id") if moved.positive?
    rescue CommandError => e
      log('error', "could not apply the principal id mapping: #{e.message}")
    end
  end

  def answer(request, result)
    reply = { 'jsonrpc' => '2.0', 'id' => request['id'], 'result' => result }
    return if @wire.send_message(reply)

    answer_error(request, PLUGIN_ERROR, 'the result could not be sent (too large or not encodable)')
  end

  def answer_error(request, code, message, data = nil)
    error = { 'code' => code, 'message' => message }
    error['data'] = data unless data.nil?
    @wire.send_message({ 'jsonrpc' => '2.0', 'id' => request['id'], 'error' => error })
    nil
  end

  # §14: a notification, levels debug/info/warn/error.
  def log(level, message)
    level = 'info' unless LOG_LEVELS.include?(level)
    @wire.send_message({ 'jsonrpc' => '2.0', 'method' => 'rim.log', 'params' => { 'level' => level, 'message' => message } })
  end

  LOG_LEVELS = %w[debug info warn error].freeze
end

Plugin.new.run if $PROGRAM_NAME == __FILE__
