"""Word lists for testing the BuyWord dictionary, written by hand from general knowledge.

They were NOT read off any word list the toolkit ships or depends on: they are what a teacher
would expect a dictionary for 12-16-year-olds to accept (``EVERYDAY``) and to refuse
(``JUNK``). Issue 15 ("BuyWord complete") names some of them: the everyday words kids, acts,
leads, revised, hunters, began, miles, mom; the two-letter words ad, ah, oh, ox, ax, ow, ma,
pa, ha; the junk cd, co, st and the three-letter junk xvi, ftp, bks, sri, mao, uts, rio found in
the old list.

Corrections made after a first run, each a mistake of the list, not of the dictionary: "spelt"
left EVERYDAY (the British past tense; the word list is American: ax, mom); "john" (a toilet),
"maria" (the dark plains of the Moon), "raj" (rule) and "sept" (a clan) left JUNK: they are
lowercase English words in general dictionaries, so a dictionary may accept them.
"""
from __future__ import annotations

#: Common two-letter words (all must be sellable).
TWO_LETTER = """
ad ah oh ox ax ow ma pa ha an as at be by do go he hi if in is it me my no of on or so to up us
we am
""".split()

#: Everyday words a 12-year-old knows, with plurals, -s, -ed, -ing, comparatives and irregular
#: forms (past tenses, past participles, plurals).
EVERYDAY = TWO_LETTER + """
kids acts leads revised hunters began miles mom moms dad dads
cat cats dog dogs horse horses mouse mice goose geese sheep fish fishes ox oxen child children
man men woman women person people foot feet tooth teeth wolf wolves knife knives leaf leaves
life lives wife wives half halves shelf shelves loaf loaves calf calves
box boxes fox foxes bus buses church churches dish dishes glass glasses watch watches
baby babies city cities party parties story stories lady ladies puppy puppies berry berries
boy boys toy toys day days key keys monkey monkeys
apple apples banana bananas orange oranges grape grapes lemon lemons bread cake cakes
cookie cookies pizza pizzas sandwich sandwiches egg eggs cheese milk water juice soup
table tables chair chairs door doors window windows house houses room rooms bed beds
school schools teacher teachers student students book books pencil pencils paper desk desks
friend friends family families brother brothers sister sisters uncle aunt aunts cousin cousins
game games ball balls team teams player players goal goals match coach coaches
car cars bike bikes train trains plane planes boat boats road roads street streets
tree trees flower flowers grass river rivers mountain mountains sea beach beaches island islands
sun moon star stars sky cloud clouds rain snow wind storm storms
red blue green yellow black white brown pink purple
big bigger biggest small smaller smallest happy happier happiest sad sadder fast faster fastest
good better best bad worse worst tall taller short shorter old older young younger
easy easier hard harder funny funnier nice nicer large larger
walk walks walked walking run runs ran running jump jumps jumped jumping
play plays played playing look looks looked looking help helps helped helping
talk talks talked talking want wants wanted wanting need needs needed needing
open opens opened opening close closes closed closing start starts started starting
stop stops stopped stopping shop shops shopped shopping plan plans planned planning
hope hopes hoped hoping like likes liked liking live lives lived living move moves moved moving
try tries tried trying cry cries cried crying carry carries carried carrying study studies
studied studying worry worries worried worrying
go goes went gone going do does did done doing be was were been being have has had having
see sees saw seen seeing eat eats ate eaten eating drink drinks drank drunk drinking
swim swims swam swum swimming sing sings sang sung singing ring rang rung begin begins begun
beginning
take takes took taken taking give gives gave given giving write writes wrote written writing
ride rides rode ridden riding drive drives drove driven driving speak speaks spoke spoken
break breaks broke broken breaking choose chose chosen freeze froze frozen steal stole stolen
wake woke woken fall fell fallen falling forget forgot forgotten hide hid hidden bite bit bitten
know knows knew known grow grows grew grown throw threw thrown fly flies flew flown draw drew
drawn blow blew blown show showed shown
buy buys bought buying sell sells sold selling bring brought think thought catch caught teach
taught fight fought find found make made say said pay paid lay laid tell told feel felt keep
kept sleep slept leave left meet met send sent spend spent build built lose lost win won sit sat
stand stood understand understood hear heard hold held get got read wear wore worn tear tore
torn come came become became
cut hit put set let hurt cost shut
lead leading act acted acting hunt hunted hunting hunter revise revising mile
kid kidding word words letter letters money dollar dollars coin coins price prices
bank banks spell spelled spelling count counted counting add added adding
score scores scored scoring winner winners loser losers
animal animals bird birds duck ducks chicken chickens cow cows pig pigs rabbit rabbits
frog frogs snake snakes lion lions tiger tigers bear bears elephant elephants
computer computers phone phones video videos music song songs movie movies picture pictures
happy happiness kind kindness quick quickly slow slowly sadly careful carefully
unhappy unkind redo
""".split()

#: Strings a dictionary for students must refuse: abbreviations, names, places, roman numerals,
#: brands and foreign words (none of them has an everyday lowercase meaning).
JUNK = """
cd co st ftp bks uts xvi sri mao rio
usa nasa fbi cia dvd pc asap lol omg etc mr mrs dr jr sr vs ave blvd dept govt inc ltd corp
approx misc html http www url usb cpu gps atm rsvp aka diy faq ceo mph kph kg km cm lb oz ft
yd hr tsp tbsp pkg qty vip ufo pm bc ie eg nb ps rd nd th xl xxl apr aug oct nov dec jan
feb thu fri tues thurs
iii vii viii xii xiii xiv xvii xviii xix xxi xxv xxx xlv lxx xcv mcmxc mmxx cxl dcc ccc xxiv
mary james david sarah emma olivia michael ahmed emily jose juan pierre hans chen wang
jessica daniel sophia texas ohio florida boston chicago sydney toronto europe asia africa america paris london
berlin madrid rome dublin cairo delhi tokyo
ebay nike adidas pepsi xbox iphone ipad nintendo sony toyota honda samsung microsoft facebook
youtube tiktok fanta doritos mcdonalds starbucks netflix spotify instagram snapchat reddit
nvidia disney pixar ikea audi bmw volvo skype gmail paypal
bonjour merci danke gracias hola nein oui bitte arigato gato perro hund grazie bonsoir
""".split()


#: Issue 26: the pronouns of a school grammar's tables (personal, possessive, reflexive,
#: demonstrative, interrogative and relative, indefinite), two letters or more ("I" is one
#: letter; Rules.min_word_length is 2). Written from the grammar, not read off any word list.
PRONOUNS = """
me my mine you your yours he him his she her hers it its we us our ours they them their theirs
myself yourself himself herself itself ourselves yourselves themselves
this that these those who whom whose which what whoever whatever whichever whomever
anybody anyone anything everybody everyone everything nobody nothing somebody someone something
each either neither none one both few many several all any most some other others another
""".split()

#: Issue 26: the simple past and past participle of the irregular verbs a 12-year-old uses
#: (a school grammar's irregular-verb table, American and British forms), e.g. led, fled, bled.
IRREGULAR_PAST = """
arose arisen awoke awoken was were been bore born borne beat beaten became become began begun
bent bet bound bit bitten bled blew blown broke broken bred brought built burnt burst bought
caught chose chosen clung came cost crept cut dealt dug did done drew drawn dreamt drank drunk
drove driven dove dwelt ate eaten fell fallen fed felt fought found fled flung flew flown
forbade forbidden forgot forgotten forgave forgiven froze frozen got gotten gave given went gone
ground grew grown hung had heard hid hidden hit held hurt kept knelt knew known laid led leant
leapt learnt left lent let lay lain lit lost made meant met mistook mistaken mown overcame paid
put quit read rode ridden rang rung rose risen ran run sawn said saw seen sought sold sent set
sewn shook shaken shorn shed shone shot showed shown shrank shrunk shut sang sung sank sunk sat
slew slain slept slid slung slit smelt spoke spoken sped spelt spent spilt spun spat split
spread sprang sprung stood stole stolen stuck stung stank stunk strode struck strung strove
striven swore sworn swept swollen swam swum swung took taken taught tore torn told thought threw
thrown thrust trod trodden understood undid undone upset woke woken wore worn wove woven wept
won wound wrung wrote written withdrew withdrawn
""".split()
